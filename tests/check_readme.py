#!/usr/bin/env python3
"""Checks README.md against the tree: its two commands are the scripts they
name, and every repository path it cites exists. (tests/runtime checks its
switches table against runtime/settings.def.)"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..")
readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
problems = []

commands = re.findall(r"^ {7}(scripts/\S+)$", readme, re.M)
if commands != ["scripts/demo.sh", "scripts/test.sh"]:
    problems.append(f"the two commands are {commands}, expected "
                    "scripts/demo.sh then scripts/test.sh")
for command in commands:
    path = os.path.join(ROOT, command)
    if not os.access(path, os.X_OK):
        problems.append(f"{command} is not an executable script")

cited = set(re.findall(
    r"`((?:docs|bench|conformance|runtime|compiler|device|icd|builtins|"
    r"scripts|tests|examples)/[A-Za-z0-9_./-]*)`", readme))
for path in sorted(cited):
    if not os.path.exists(os.path.join(ROOT, path)):
        problems.append(f"README cites {path}, which does not exist")

heading = "## What is supported"
table = readme[readme.index(heading):].split("\n## ")[0] \
    if heading in readme else ""
rows = [line for line in table.splitlines() if line.startswith("| ")]
if len(rows) < 10:
    problems.append("the feature table has fewer than 10 rows")

for problem in problems:
    print(problem)
print(f"{len(commands)} commands, {len(cited)} paths, {len(rows)} table "
      f"rows, {len(problems)} problems")
sys.exit(1 if problems else 0)
