"""Every file a foreign client stack loads comes from its install line (issue 63), the Locust engine's too (issue 67).

A package installed by hand on one machine hides a package missing from the install line: that machine is green, a new
one is red. So for the JMeter and the Python stacks this lists what each loads (the JMeter stack's classpath, the jars
its JMeter jars' manifests name, its java, javac and native library with the libraries that one links; every module
Debian's Python imports for cell.py and every shared object it maps), asks dpkg which package installed each file, and
fails for a file that no package installed or whose package neither the stack's debian-packages file names nor any of
those packages depends on (apt-cache depends --recurse). The Node stack is pinned by its lock file.

Run with Debian's /usr/bin/python3 from the repository's root; prints a line per stack and exits 1 on any failure.
"""

import os
import re
import subprocess
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STACKS = os.path.join(ROOT, "tools", "stacks")


def install_line(stack):
    """The packages of tools/stacks/STACK/debian-packages, in order."""
    with open(os.path.join(STACKS, stack, "debian-packages"), encoding="utf-8") as file:
        return [word for line in file if not line.startswith("#") for word in line.split()]


def with_dependencies(packages):
    """The packages and every package they depend on (pre-depends too), recursively; alternatives and providers included."""
    output = subprocess.run(
        ["apt-cache", "depends", "--recurse", "--no-recommends", "--no-suggests", "--no-conflicts", "--no-breaks",
         "--no-replaces", "--no-enhances", *packages],
        check=True, capture_output=True, text=True).stdout
    return {line.strip("<>") for line in output.splitlines() if line and not line.startswith(" ")}


def owners(paths):
    """The package that installed each path (None for none): dpkg's name for it, its real path, or its /usr-merged twin."""
    def candidates(path):
        real = os.path.realpath(path)
        for name in dict.fromkeys([path, real]):
            yield name
            yield name[len("/usr"):] if name.startswith("/usr/") else "/usr" + name

    every = sorted({name for path in paths for name in candidates(path)})
    found = {}
    # dpkg -S takes many paths at once and prints "package[:arch][, package]: path" for each it knows.
    for start in range(0, len(every), 200):
        result = subprocess.run(["dpkg", "-S", *every[start:start + 200]], capture_output=True, text=True)
        for line in result.stdout.splitlines():
            if line.startswith("diversion "):
                continue
            packages, _, path = line.partition(": ")
            found.setdefault(path, packages.split(", ")[0].split(":")[0])
    return {path: next((found[name] for name in candidates(path) if name in found), None) for path in paths}


def linked_libraries(path):
    """The shared libraries a native library links, by ldd."""
    output = subprocess.run(["ldd", path], capture_output=True, text=True).stdout
    return [match.group(1) for match in re.finditer(r"=> (/\S+)", output)]


def manifest_class_path(jar):
    """The jars a jar's manifest names (Class-Path:), which the JVM loads from too; those that exist."""
    try:
        with zipfile.ZipFile(jar) as archive:
            manifest = archive.read("META-INF/MANIFEST.MF").decode("utf-8", "replace")
    except (KeyError, OSError, zipfile.BadZipFile):
        return []
    # A manifest's long lines go on after a newline and one space.
    unfolded = manifest.replace("\r\n", "\n").replace("\n ", "")
    entries = [word for line in unfolded.splitlines() if line.startswith("Class-Path:") for word in line[len("Class-Path:"):].split()]
    return [entry for entry in entries if entry.startswith("/") and os.path.exists(entry)]


def jmeter_files():
    """Every file the JMeter stack loads, with the package cell.sh names for it (None for one it reaches through another)."""
    result = subprocess.run(["bash", os.path.join(STACKS, "jmeter", "cell.sh"), "--files"], capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"jmeter: cell.sh --files failed: {(result.stdout + result.stderr).strip()}")
    named = dict(reversed(line.split(" ", 1)) for line in result.stdout.splitlines())
    files = dict(named)
    pending = [path for path in named if path.endswith(".jar")]
    while pending:
        for entry in manifest_class_path(pending.pop()):
            if entry not in files:
                files[entry] = None
                pending.append(entry)
    for path in [path for path in named if path.endswith(".so")]:
        for library in linked_libraries(path):
            files.setdefault(library, None)
    return files


# What the interpreter loads to import a stack's program beyond what it had loaded at start (a .pth file of a package
# installed for something else, setuptools' _distutils_hack say, is loaded by every Python here but not needed by the
# stack), with the modules named after it (a Locust worker runs `python3 -m locust`: locust.main).
PYTHON_LOADS = """
import importlib, importlib.util, os, sys
def loaded():
    files = {getattr(m, "__file__", None) for m in list(sys.modules.values())}
    with open("/proc/self/maps") as maps:
        files |= {line.split(None, 5)[5].strip() for line in maps if len(line.split(None, 5)) == 6}
    return {f for f in files if f and f.startswith("/") and (f.endswith((".py", ".so")) or ".so." in f)}
at_start = loaded()
sys.path.insert(0, os.path.dirname(sys.argv[1]))
spec = importlib.util.spec_from_file_location("program", sys.argv[1])
spec.loader.exec_module(importlib.util.module_from_spec(spec))
for name in sys.argv[2:]:
    importlib.import_module(name)
print("\\n".join(sorted(loaded() - at_start | {sys.executable})))
"""


def python_files(stack, program, *modules):
    """Every module file and shared object Debian's Python loads to import the stack's program, and the interpreter itself."""
    result = subprocess.run(["/usr/bin/python3", "-c", PYTHON_LOADS, os.path.join(STACKS, stack, program), *modules],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{stack}: /usr/bin/python3 cannot import {program}'s modules: {result.stderr.strip().splitlines()[-1:]}")
    # The stack's own sources are the project's.
    return {path: None for path in result.stdout.splitlines() if not path.startswith(ROOT)}


def check(stack, files):
    """Prints the stack's line; returns the number of files that come from outside its install line."""
    line = install_line(stack)
    allowed = with_dependencies(line)
    failures = []
    for path, owner in owners(list(files)).items():
        if owner is None:
            failures.append(f"{path} belongs to no Debian package (installed by hand?)")
        elif owner not in allowed:
            failures.append(f"{path} comes from {owner}, which the install line neither names nor pulls in")
        elif files[path] is not None and files[path] != owner and owner not in with_dependencies([files[path]]):
            failures.append(f"{path} comes from {owner}, where cell.sh names {files[path]}")
    print(f"{stack}: {len(files)} files loaded, {len(files) - len(failures)} from the {len(line)} packages of its install "
          f"line or the {len(allowed) - len(line)} they depend on" + ("" if not failures else f"; {len(failures)} not:"))
    for failure in failures:
        print(f"  {failure}")
    if failures:
        print(f"  the line (tools/stacks/{stack}/debian-packages): apt-get install {' '.join(line)}")
    return len(failures)


if __name__ == "__main__":
    failures = check("jmeter", jmeter_files()) + check("python", python_files("python", "cell.py"))
    failures += check("locust", python_files("locust", "master.py", "locust.main"))
    sys.exit(1 if failures else 0)
