#!/usr/bin/env python3
"""Checks the compiler's layout (compiler/README.md): every file sits in a
stage folder that has a README, every pass of passes.def lives in the folder
its stage belongs to, and has an IR test in the tests/compiler folder of the
same name, one whose first line names it ("// weft-name: ..." in a .cl file,
"; weft-name: ..." in a .ll file)."""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..")
COMPILER = os.path.join(ROOT, "compiler")
TESTS = os.path.join(ROOT, "tests", "compiler")

FOLDERS = ["interface", "pipeline", "frontend", "analysis", "passes/prepare",
           "passes/kernels", "passes/finish", "passes/optimizer", "codegen",
           "support", "tools"]
ROOT_FILES = {"CMakeLists.txt", "README.md"}
# Where the passes of each stage of passes.def live. weft-choose-plan is the
# plan itself, so it lives with the analysis it is made from.
STAGE_FOLDERS = {
    "Prepare": {"passes/prepare"},
    "Kernels": {"passes/kernels", "analysis"},
    "Finish": {"passes/finish"},
    "Peephole": {"passes/optimizer"},
    "VectorizerStart": {"passes/optimizer"},
    "OptimizerLast": {"passes/optimizer"},
    "Loop": {"passes/optimizer"},
}

problems = []


def relative(path, base):
    return os.path.relpath(path, base).replace(os.sep, "/")


# Every file in a stage folder; every stage folder with its README.
for directory, subdirectories, files in os.walk(COMPILER):
    subdirectories[:] = [d for d in subdirectories if not d.startswith(".")]
    here = relative(directory, COMPILER)
    if here == ".":
        for name in files:
            if name not in ROOT_FILES:
                problems.append(f"compiler/{name} is in no stage folder")
        continue
    if here not in FOLDERS:
        if files and not any(f.startswith(here + "/") for f in FOLDERS):
            problems.append(f"compiler/{here}/ is not a stage folder "
                            "(compiler/README.md lists them)")
        elif files:
            problems.append(f"compiler/{here}/ holds files but only its "
                            "subfolders are stages")
        continue
    if "README.md" not in files:
        problems.append(f"compiler/{here}/ has no README.md")
for folder in FOLDERS:
    if not os.path.isdir(os.path.join(COMPILER, folder)):
        problems.append(f"compiler/{folder}/ is missing")

# Each tests/compiler folder mirrors a compiler folder.
for directory, subdirectories, files in os.walk(TESTS):
    here = relative(directory, TESTS)
    tests = [f for f in files if f.endswith((".cl", ".ll", ".cpp"))]
    if here != "." and tests and here not in FOLDERS:
        problems.append(f"tests/compiler/{here}/ matches no compiler folder")
    if here == "." and tests:
        problems.append("tests/compiler/ holds tests outside the stage "
                        f"folders: {', '.join(sorted(tests))}")

# Where each pass class is declared.
declared = {}
for directory, _, files in os.walk(COMPILER):
    for name in files:
        if not name.endswith(".h"):
            continue
        text = open(os.path.join(directory, name), encoding="utf-8").read()
        for match in re.finditer(r"^(?:class|struct)\s+(\w+)", text, re.M):
            declared.setdefault(match.group(1), relative(directory, COMPILER))

# The first line of each IR test, by folder.
first_lines = {}
for directory, _, files in os.walk(TESTS):
    for name in files:
        if name.endswith((".cl", ".ll")):
            with open(os.path.join(directory, name), encoding="utf-8") as f:
                first_lines.setdefault(relative(directory, TESTS), []).append(
                    f.readline())

passes_def = os.path.join(COMPILER, "pipeline", "passes.def")
text = open(passes_def, encoding="utf-8").read()
entries = []
for match in re.finditer(
        r'^WEFT_MODULE_PASS\((\w+),\s*"([^"]+)",\s*(\w+)', text, re.M):
    entries.append(match.groups())
for match in re.finditer(
        r'^WEFT_FUNCTION_PASS\((\w+),\s*"([^"]+)",\s*(\w+)', text, re.M):
    entries.append(match.groups())
for match in re.finditer(r'^WEFT_LOOP_PASS\("([^"]+)",\s*(\w+)', text, re.M):
    entries.append(("Loop",) + match.groups())
if not entries:
    problems.append("no pass found in compiler/pipeline/passes.def")

for stage, name, cls in entries:
    if stage == "Tool":
        continue
    folder = declared.get(cls)
    if folder is None:
        problems.append(f"{name}: class {cls} is declared in no header")
        continue
    if stage not in STAGE_FOLDERS:
        problems.append(f"{name}: unknown stage {stage}")
    elif folder not in STAGE_FOLDERS[stage]:
        problems.append(f"{name} ({stage}) lives in compiler/{folder}/, not "
                        f"in {' or '.join(sorted(STAGE_FOLDERS[stage]))}")
    pattern = re.compile(r"^(//|;)\s*" + re.escape(name) + r":")
    if not any(pattern.match(line) for line in first_lines.get(folder, [])):
        problems.append(f"{name}: no IR test in tests/compiler/{folder}/ "
                        f"whose first line starts with '// {name}:'")

for problem in problems:
    print(problem)
print(f"{len(entries)} passes, {len(problems)} layout problems")
sys.exit(1 if problems else 0)
