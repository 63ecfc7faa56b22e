"""Shared code for tests/oracle/record and tests/oracle/run.

Python 3 standard library only.  See tests/oracle/README for the formats.
"""

import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(PROJECT, "fixtures", "oracle")
CASES_FILE = os.path.join(FIXTURES, "kernel-6.1.cases")
EXPECTED_FILE = os.path.join(FIXTURES, "kernel-6.1.expected")
FORMAT = "git-maintainer-oracle 1"

# The argument sets; every run gets SET ARGS + CASE ARGS.
ARGSETS = [
    ("a", ["--nogit", "--nogit-fallback", "--norolestats"]),
    ("b", ["--nogit", "--nogit-fallback", "--rolestats"]),
    ("c", ["--nogit", "--nogit-fallback", "--rolestats", "--nol"]),
    ("d", ["--nogit", "--nogit-fallback", "--rolestats", "--nom"]),
    ("e", ["--nogit", "--nogit-fallback", "--rolestats", "--nokeywords"]),
    ("f", ["--nogit", "--nogit-fallback", "--rolestats", "--scm", "--status",
           "--subsystem", "--web"]),
    ("g", ["--nogit", "--nogit-fallback", "--sections"]),
]
ARGSET = dict(ARGSETS)

# Synthesized patches: identity and dates used for commits (mbox forms).
IDENT = {
    "GIT_AUTHOR_NAME": "Oracle Tester",
    "GIT_AUTHOR_EMAIL": "oracle.tester@example.org",
    "GIT_COMMITTER_NAME": "Oracle Tester",
    "GIT_COMMITTER_EMAIL": "oracle.tester@example.org",
    "GIT_AUTHOR_DATE": "2022-12-12T10:00:00Z",
    "GIT_COMMITTER_DATE": "2022-12-12T10:00:00Z",
}
EDIT_SUFFIX = b" /* edited */"
ADD_SUFFIX = b" /* added */"
NEW_FILE_LINES = 30


def die(msg, status=1):
    sys.stderr.write(msg.rstrip("\n") + "\n")
    sys.exit(status)


def run_env(extra=None):
    """Environment for the tool under test and for perl: stable locale,
    no POSIXLY_CORRECT, no git configuration from the user or the system."""
    env = dict(os.environ)
    env.pop("POSIXLY_CORRECT", None)
    for k in list(env):
        if k.startswith("GIT_") or k.startswith("PERL"):
            del env[k]
    env["LC_ALL"] = "C"
    env["TZ"] = "UTC"
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    env["GIT_CONFIG_GLOBAL"] = "/dev/null"
    if extra:
        env.update(extra)
    return env


def tree_script():
    """The script that finds or builds the tree (tests/oracle/kernel-tree)."""
    return os.path.join(HERE, "kernel-tree")


def locate_tree(explicit=None):
    """Return (path, None), or (None, reason) when the tree cannot be had
    because Debian's linux-source-6.1 is not installed (kernel-tree exits
    77): a skip.  Any other failure (a GM_KERNEL_TREE or an explicit path
    that is no git work tree, a build that failed) ends the program with
    status 1."""
    path = explicit or os.environ.get("GM_KERNEL_TREE")
    if path:
        if not os.path.exists(os.path.join(path, ".git")):
            die("FAIL: %s is not a git work tree" % (
                path if explicit else "GM_KERNEL_TREE=" + path))
        return os.path.abspath(path), None
    script = tree_script()
    try:
        p = subprocess.run([script], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=3600)
    except (OSError, subprocess.TimeoutExpired) as e:
        die("FAIL: %s: %s" % (script, e))
    err = p.stderr.decode(errors="replace")
    if p.returncode == 77:
        lines = err.strip().splitlines() or ["exit 77"]
        return None, lines[-1].split(": ", 1)[-1]
    sys.stderr.write(err)
    if p.returncode != 0:
        die("FAIL: %s exited with status %d" % (script, p.returncode))
    path = (p.stdout.decode().strip().splitlines()[-1:] or [""])[0]
    if not os.path.exists(os.path.join(path, ".git")):
        die("FAIL: %s printed %r, which is not a git work tree" % (
            script, path))
    return path, None


def git(tree, args, env=None, input=None, check=True):
    p = subprocess.run(["git", "-C", tree] + args, input=input,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=env or run_env())
    if check and p.returncode != 0:
        raise RuntimeError("git %s: %s" % (" ".join(args),
                                           p.stderr.decode(errors="replace")))
    return p.stdout


def blob_ids(tree):
    return {
        "MAINTAINERS": git(tree, ["rev-parse", "HEAD:MAINTAINERS"]).decode().strip(),
        "scripts/get_maintainer.pl":
            git(tree, ["rev-parse", "HEAD:scripts/get_maintainer.pl"]).decode().strip(),
    }


# ---------------------------------------------------------------- cases file

def read_cases(path=CASES_FILE):
    """Return (header dict, list of case dicts) from the cases file.

    Each case dict: id, kind ('args' or 'patch'), and either
    args (list) or form, sha256, edits (list of tuples)."""
    header = {}
    cases = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            if line.startswith("#"):
                if line.startswith("#@ "):
                    k, _, v = line[3:].partition(" ")
                    header[k] = v
                continue
            fields = line.split("\t")
            cid, kind = fields[0], fields[1]
            if kind == "args":
                cases.append({"id": cid, "kind": kind, "args": fields[2:]})
            elif kind == "patch":
                cases.append({"id": cid, "kind": kind, "form": fields[2],
                              "sha256": fields[3],
                              "edits": [parse_edit(e) for e in fields[4:]]})
            else:
                raise ValueError("bad case line: %r" % line)
    return header, cases


def parse_edit(tok):
    parts = tok.split(":")
    if parts[0] == "ren":
        return (parts[0], int(parts[1]), parts[2], parts[3])
    return (parts[0], int(parts[1]), parts[2])


def format_edit(e):
    return ":".join(str(x) for x in e)


def case_args(case, tree, patchdir):
    if case["kind"] == "patch":
        return [os.path.join(patchdir, case["id"] + ".patch")]
    return [a.replace("@TREE@", tree) for a in case["args"]]


# ------------------------------------------------------------- expected file

def open_expected(path=None, mode="rt"):
    path = path or expected_path()
    if path.endswith(".gz"):
        return gzip.open(path, mode, encoding="utf-8")
    return open(path, mode, encoding="utf-8")


def expected_path():
    if os.path.exists(EXPECTED_FILE + ".gz"):
        return EXPECTED_FILE + ".gz"
    return EXPECTED_FILE


def read_expected(path=None):
    header = None
    records = []
    with open_expected(path) as f:
        for line in f:
            obj = json.loads(line)
            if header is None:
                header = obj
            else:
                records.append(obj)
    return header, records


# ------------------------------------------------------ patch synthesis

def split_lines(data):
    parts = data.split(b"\n")
    out = [p + b"\n" for p in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


def body_eol(line):
    if line.endswith(b"\r\n"):
        return line[:-2], b"\r\n"
    if line.endswith(b"\n"):
        return line[:-1], b"\n"
    return line, b""


def edit_content(kind, pos, data):
    lines = split_lines(data)
    if not 1 <= pos <= len(lines):
        raise ValueError("line %d out of range 1..%d" % (pos, len(lines)))
    body, eol = body_eol(lines[pos - 1])
    if kind == "mod":
        lines[pos - 1] = body + EDIT_SUFFIX + eol
    elif kind == "add":
        lines.insert(pos - 1, body + ADD_SUFFIX + (eol or b"\n"))
    elif kind == "del":
        del lines[pos - 1]
    else:
        raise ValueError(kind)
    return b"".join(lines)


def new_file_path(template):
    d, b = os.path.split(template)
    return (d + "/" if d else "") + "new-" + b


class PatchMaker:
    """Builds patches with git, in a private object directory (the shared
    tree's objects are borrowed read-only through alternates) and a private
    index file, so the shared repository, its index and its work tree are
    never written."""

    def __init__(self, tree):
        self.tree = tree
        self.tmp = tempfile.mkdtemp(prefix="gm-oracle-git-")
        os.mkdir(os.path.join(self.tmp, "objects"))
        os.mkdir(os.path.join(self.tmp, "home"))
        self.env = run_env(dict(IDENT))
        self.env.update({
            "HOME": os.path.join(self.tmp, "home"),
            "GIT_INDEX_FILE": os.path.join(self.tmp, "index"),
            "GIT_OBJECT_DIRECTORY": os.path.join(self.tmp, "objects"),
            "GIT_ALTERNATE_OBJECT_DIRECTORIES":
                os.path.join(tree, ".git", "objects"),
        })
        self.head = self.g(["rev-parse", "HEAD"]).decode().strip()
        self._cat = None

    def close(self):
        if self._cat:
            self._cat.stdin.close()
            self._cat.wait()
            self._cat = None
        shutil.rmtree(self.tmp, ignore_errors=True)

    def g(self, args, input=None):
        return git(self.tree, ["-c", "core.quotePath=true",
                               "-c", "diff.noprefix=false",
                               "-c", "diff.mnemonicPrefix=false",
                               "-c", "diff.relative=false",
                               "-c", "diff.suppressBlankEmpty=false",
                               "-c", "diff.orderFile=/dev/null",
                               "-c", "core.autocrlf=false",
                               "-c", "core.safecrlf=false"] + args,
                   env=self.env, input=input)

    def blob(self, path):
        """(mode, sha, content) of HEAD:path, or None."""
        if self._cat is None:
            self._cat = subprocess.Popen(
                ["git", "-C", self.tree, "cat-file", "--batch"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=self.env)
        self._cat.stdin.write(("HEAD:%s\n" % path).encode())
        self._cat.stdin.flush()
        hdr = self._cat.stdout.readline().decode()
        if hdr.endswith("missing\n"):
            return None
        sha, typ, size = hdr.split()
        data = self._cat.stdout.read(int(size))
        self._cat.stdout.read(1)
        if typ != "blob":
            return None
        out = self.g(["ls-tree", "HEAD", "--", path]).decode()
        mode = out.split()[0]
        return mode, sha, data

    def hash_blob(self, data):
        return self.g(["hash-object", "-w", "--stdin"], input=data).decode().strip()

    def apply(self, edits):
        """Apply edits to the private index (already holding some tree)."""
        info = []
        zero = "0" * 40
        for e in edits:
            kind, pos, path = e[0], e[1], e[2]
            if kind == "new":
                mode, sha, data = self.blob(path)
                content = b"".join(split_lines(data)[:NEW_FILE_LINES])
                info.append("100644 %s\t%s" % (self.hash_blob(content),
                                               new_file_path(path)))
                continue
            mode, sha, data = self.blob(path)
            if kind in ("mod", "add", "del"):
                info.append("%s %s\t%s" % (
                    mode, self.hash_blob(edit_content(kind, pos, data)), path))
            elif kind == "rm":
                info.append("0 %s\t%s" % (zero, path))
            elif kind == "mode":
                newmode = "100755" if mode == "100644" else "100644"
                info.append("%s %s\t%s" % (newmode, sha, path))
            elif kind == "ren":
                newsha = sha
                if pos:
                    newsha = self.hash_blob(edit_content("mod", pos, data))
                info.append("0 %s\t%s" % (zero, path))
                info.append("%s %s\t%s" % (mode, newsha, e[3]))
            else:
                raise ValueError("unknown edit kind %r" % kind)
        self.g(["update-index", "--index-info"],
               input=("\n".join(info) + "\n").encode())

    def commit(self, parent, edits, subject, body):
        self.g(["read-tree", parent])
        self.apply(edits)
        tree = self.g(["write-tree"]).decode().strip()
        msg = subject + "\n\n" + body + "\n"
        return self.g(["commit-tree", tree, "-p", parent],
                      input=msg.encode()).decode().strip()

    def make(self, case):
        """The patch text (bytes) for a patch case."""
        cid, form, edits = case["id"], case["form"], case["edits"]
        renames = ["-M"] if any(e[0] == "ren" for e in edits) else ["--no-renames"]
        common = ["--full-index", "--no-color", "--no-ext-diff", "--no-textconv",
                  "--diff-algorithm=myers", "--indent-heuristic", "-U3",
                  "--src-prefix=a/", "--dst-prefix=b/"] + renames
        if form == "diff":
            self.g(["read-tree", self.head])
            self.apply(edits)
            return self.g(["diff", "--cached"] + common + [self.head])
        first = edits[0][2]
        top = first.split("/")[0] if "/" in first else first
        if form == "mbox":
            c = self.commit(self.head, edits, "%s: oracle test patch %s"
                            % (top, cid), commit_body(edits))
            rng = ["-1", c]
        elif form == "mbox2":
            half = (len(edits) + 1) // 2
            c1 = self.commit(self.head, edits[:half],
                             "%s: oracle test series %s, part 1" % (top, cid),
                             commit_body(edits[:half]))
            c2 = self.commit(c1, edits[half:],
                             "%s: oracle test series %s, part 2" % (top, cid),
                             commit_body(edits[half:]))
            rng = ["-2", c2]
        else:
            raise ValueError("unknown patch form %r" % form)
        return self.g(["format-patch", "--stdout", "--no-signature",
                       "--no-thread", "--no-attach", "--stat=72",
                       "--summary", "--no-cover-letter",
                       "--encode-email-headers"] + common + rng)


def commit_body(edits):
    first = edits[0][2]
    return ("Synthesized for the differential test of git-maintainer: it\n"
            "touches %d file(s), the first being %s.\n\n"
            "Signed-off-by: Oracle Tester <oracle.tester@example.org>"
            % (len(edits), first))


def write_patches(tree, cases, outdir, check=True):
    """Write every patch case to OUTDIR/<id>.patch.  Returns the list of
    (case id, message) for patches whose sha256 does not match the record
    (only when check)."""
    bad = []
    pm = PatchMaker(tree)
    try:
        for c in cases:
            if c["kind"] != "patch":
                continue
            try:
                data = pm.make(c)
            except Exception as e:  # noqa: BLE001 - reported per case
                bad.append((c["id"], "cannot regenerate: %s" % e))
                data = b""
            with open(os.path.join(outdir, c["id"] + ".patch"), "wb") as f:
                f.write(data)
            c["_sha"] = hashlib.sha256(data).hexdigest()
            if check and c["_sha"] != c.get("sha256"):
                bad.append((c["id"], "regenerated patch differs from the "
                            "recorded one (sha256 %s, recorded %s)"
                            % (c["_sha"], c.get("sha256"))))
    finally:
        pm.close()
    return bad
