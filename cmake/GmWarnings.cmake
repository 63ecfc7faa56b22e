# GM_SANITIZE: a false value (OFF) for none; a true one (ON) for
# AddressSanitizer and UBSan; "thread" for ThreadSanitizer, which runs
# alone (it cannot be combined with AddressSanitizer).
string(TOUPPER "${GM_SANITIZE}" gm_sanitize)
if(gm_sanitize STREQUAL "THREAD")
	set(GM_SANITIZE_COMPILE -fsanitize=thread -fno-omit-frame-pointer)
	set(GM_SANITIZE_LINK -fsanitize=thread)
elseif(gm_sanitize MATCHES "^(1|ON|YES|TRUE|Y)$")
	set(GM_SANITIZE_COMPILE -fsanitize=address,undefined
		-fno-omit-frame-pointer -fno-sanitize-recover=all)
	set(GM_SANITIZE_LINK -fsanitize=address,undefined)
elseif(gm_sanitize MATCHES "^(0|OFF|NO|FALSE|N|)$")
	set(GM_SANITIZE_COMPILE)
	set(GM_SANITIZE_LINK)
else()
	message(FATAL_ERROR
		"GM_SANITIZE=${GM_SANITIZE}: expected OFF, ON or thread")
endif()

# gm_target_warnings(<target>): the project's warning set, per target,
# and the sanitizers GM_SANITIZE asks for.
function(gm_target_warnings target)
	if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
		target_compile_options(${target} PRIVATE
			-Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes
			-Wmissing-prototypes -Wformat=2 -Wwrite-strings -Wvla
			-Wdeclaration-after-statement -Wimplicit-fallthrough
			$<$<BOOL:${GM_WERROR}>:-Werror>
			${GM_SANITIZE_COMPILE})
		target_link_options(${target} PRIVATE ${GM_SANITIZE_LINK})
	endif()
endfunction()
