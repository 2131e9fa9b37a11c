// Parses the build options of clBuildProgram into what the Clang front end
// and Weft's own pipeline need, rejecting what the OpenCL spec does not name.
#pragma once
#include <string>
#include <vector>

namespace weft::compiler {

struct BuildOptions {
  std::vector<std::string> frontend_arguments; // passed to clang -cc1
  std::string language_standard = "CL1.2";     // spec: highest 1.x by default
  bool optimize = true;                        // false with -cl-opt-disable
  bool uniform_work_group_size = false;
  // C++ for OpenCL (cl_ext_cxx_for_opencl): -cl-std=CLC++, CLC++1.0 or
  // CLC++2021; language_standard then names Clang's spelling of it.
  bool cxx_for_opencl = false;
};

// Returns false and explains in `error` when an option is not valid.
bool parseBuildOptions(const std::string &options, BuildOptions &result,
                       std::string &error);

struct LinkOptions {
  bool create_library = false;
  bool optimize = true;
};

// The options clLinkProgram accepts (spec 5.8.7).
bool parseLinkOptions(const std::string &options, LinkOptions &result,
                      std::string &error);

} // namespace weft::compiler
