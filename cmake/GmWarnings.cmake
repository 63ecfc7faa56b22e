# gm_target_warnings(<target>): the project's warning set, per target.
function(gm_target_warnings target)
	if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
		target_compile_options(${target} PRIVATE
			-Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes
			-Wmissing-prototypes -Wformat=2 -Wwrite-strings -Wvla
			-Wdeclaration-after-statement -Wimplicit-fallthrough
			$<$<BOOL:${GM_WERROR}>:-Werror>)
		if(GM_SANITIZE)
			target_compile_options(${target} PRIVATE
				-fsanitize=address,undefined -fno-omit-frame-pointer
				-fno-sanitize-recover=all)
			target_link_options(${target} PRIVATE
				-fsanitize=address,undefined)
		endif()
	endif()
endfunction()
