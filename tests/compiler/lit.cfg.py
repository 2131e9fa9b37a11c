# IR tests of Weft's compiler passes: each test runs weft-opt (built with
# the project) on a .ll or OpenCL C file and checks the result with
# FileCheck. Run by CTest (tests/CMakeLists.txt) through LLVM 19's lit.
import os

import lit.formats

config.name = "weft-compiler"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".cl"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.weft_binary_dir, "tests", "compiler")
config.excludes = ["lit.cfg.py", "lit.site.cfg.py.in", "Inputs"]

config.substitutions.append(("%weft-opt", config.weft_opt))
# Compiles the test's own OpenCL C as a build would, up to the Kernels stage.
config.substitutions.append(("%weft-cl", config.weft_opt + " --opencl"))
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "")])
