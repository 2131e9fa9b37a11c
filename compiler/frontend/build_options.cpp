#include "compiler/frontend/build_options.h"

#include <set>

namespace weft::compiler {
namespace {

// Splits like a shell would for the simple cases applications use: spaces
// separate, double or single quotes group.
bool tokenize(const std::string &text, std::vector<std::string> &tokens,
              std::string &error) {
  std::string current;
  bool in_token = false;
  char quote = 0;
  for (char c : text) {
    if (quote) {
      if (c == quote)
        quote = 0;
      else
        current += c;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      in_token = true;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_token)
        tokens.push_back(current);
      current.clear();
      in_token = false;
    } else {
      current += c;
      in_token = true;
    }
  }
  if (quote) {
    error = "unterminated quote in build options";
    return false;
  }
  if (in_token)
    tokens.push_back(current);
  return true;
}

// Options of the OpenCL 3.0 spec (section 5.8.6) that Clang's -cc1
// understands under the same name.
const std::set<std::string> kPassThroughOptions = {
    "-cl-single-precision-constant",
    "-cl-fp32-correctly-rounded-divide-sqrt",
    "-cl-mad-enable",
    "-cl-no-signed-zeros",
    "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only",
    "-cl-fast-relaxed-math",
    "-w",
    "-Werror",
    "-cl-kernel-arg-info"};

// Accepted and without effect on a CPU.
const std::set<std::string> kIgnoredOptions = {"-cl-strict-aliasing",
                                               "-cl-no-subgroup-ifp", "-g"};

// The versions the device reports (CL_DEVICE_OPENCL_C_ALL_VERSIONS), and
// CL2.0 although the device does not report OpenCL C 2.0: the CTS builds
// its pipe kernels with -cl-std=CL2.0 on every device with pipes
// (test_pipes pipe_info), so refusing it fails conformance. Programs that
// use what 2.0 has and Weft lacks fail with a build log naming it.
const std::set<std::string> kLanguageVersions = {"CL1.0", "CL1.1", "CL1.2",
                                                 "CL2.0", "CL3.0"};
// C++ for OpenCL (cl_ext_cxx_for_opencl), in Clang's spellings: CLC++ is
// version 1.0, built on OpenCL C 2.0; 2021 is built on OpenCL C 3.0.
const std::set<std::string> kCxxForOpenClVersions = {
    "CLC++", "CLC++1.0", "CLC++2021", "clc++", "clc++1.0", "clc++2021"};

} // namespace

bool parseBuildOptions(const std::string &options, BuildOptions &result,
                       std::string &error) {
  std::vector<std::string> tokens;
  if (!tokenize(options, tokens, error))
    return false;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string &token = tokens[i];
    if (token == "-D" || token == "-I") {
      if (i + 1 == tokens.size()) {
        error = "option " + token + " needs an argument";
        return false;
      }
      result.frontend_arguments.push_back(token);
      result.frontend_arguments.push_back(tokens[++i]);
    } else if ((token.rfind("-D", 0) == 0 || token.rfind("-I", 0) == 0) &&
               token.size() > 2) {
      result.frontend_arguments.push_back(token);
    } else if (token.rfind("-cl-std=", 0) == 0) {
      std::string version = token.substr(8);
      result.cxx_for_opencl = kCxxForOpenClVersions.count(version) != 0;
      if (!kLanguageVersions.count(version) && !result.cxx_for_opencl) {
        error = "unsupported language version in '" + token +
                "' (Weft supports CL1.0, CL1.1, CL1.2, CL2.0 and CL3.0, and "
                "C++ for OpenCL as CLC++, CLC++1.0 and CLC++2021)";
        return false;
      }
      result.language_standard = version;
    } else if (token == "-cl-opt-disable") {
      result.optimize = false;
    } else if (token == "-cl-uniform-work-group-size") {
      result.uniform_work_group_size = true;
      result.frontend_arguments.push_back(token);
    } else if (token == "-cl-denorms-are-zero") {
      // Clang's driver turns it into this -cc1 flag (-cc1 itself no longer
      // takes the OpenCL spelling): single-precision denormals may flush.
      result.frontend_arguments.push_back(
          "-fdenormal-fp-math-f32=preserve-sign,preserve-sign");
    } else if (kPassThroughOptions.count(token)) {
      result.frontend_arguments.push_back(token);
    } else if (kIgnoredOptions.count(token)) {
      continue;
    } else {
      error = "unknown build option '" + token + "'";
      return false;
    }
  }
  return true;
}

bool parseLinkOptions(const std::string &options, LinkOptions &result,
                      std::string &error) {
  static const std::set<std::string> kMathOptions = {
      "-cl-denorms-are-zero",          "-cl-no-signed-zeros",
      "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
      "-cl-fast-relaxed-math",         "-cl-no-subgroup-ifp"};
  std::vector<std::string> tokens;
  if (!tokenize(options, tokens, error))
    return false;
  for (const std::string &token : tokens) {
    if (token == "-create-library")
      result.create_library = true;
    else if (token == "-enable-link-options" || kMathOptions.count(token))
      continue; // the math options were applied when compiling
    else {
      error = "unknown link option '" + token + "'";
      return false;
    }
  }
  return true;
}

} // namespace weft::compiler
