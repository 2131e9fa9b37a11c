// What installing an OpenCL driver costs every OpenCL application: the wall
// time and peak memory (RSS) of a command such as `clinfo -l`, run with
// OCL_ICD_VENDORS set to each given directory in turn.
//
//   loader_cost RUNS LABEL=DIR [LABEL=DIR ...] -- COMMAND [ARGS ...]
//
// The first LABEL is the baseline the others are compared with. This runner
// is a small C++ process on purpose: a child's peak RSS includes what it
// inherited at fork, so the parent must be tiny (a Python parent adds 14 MB).
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Sample {
  double milliseconds;
  double rss_mib;
};

bool runOnce(char **command, const std::string &vendors, Sample &sample) {
  auto start = std::chrono::steady_clock::now();
  pid_t child = fork();
  if (child < 0)
    return false;
  if (child == 0) {
    setenv("OCL_ICD_VENDORS", vendors.c_str(), 1);
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execvp(command[0], command);
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (wait4(child, &status, 0, &usage) != child)
    return false;
  auto end = std::chrono::steady_clock::now();
  sample.milliseconds =
      std::chrono::duration<double, std::milli>(end - start).count();
  sample.rss_mib = usage.ru_maxrss / 1024.0;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  int separator = 0;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--") == 0)
      separator = i;
  if (argc < 5 || separator < 3 || separator + 1 >= argc) {
    std::fprintf(stderr,
                 "usage: %s RUNS LABEL=DIR [LABEL=DIR ...] -- COMMAND [ARGS]\n",
                 argv[0]);
    return 2;
  }
  int runs = std::max(1, std::atoi(argv[1]));
  char **command = argv + separator + 1;
  double base_ms = 0, base_mib = 0;
  for (int i = 2; i < separator; ++i) {
    std::string spec = argv[i];
    size_t equals = spec.find('=');
    std::string label = spec.substr(0, equals);
    std::string vendors = equals == std::string::npos ? "" : spec.substr(equals + 1);
    Sample warm;
    runOnce(command, vendors, warm); // page cache, the driver's own caches
    std::vector<double> ms, mib;
    for (int r = 0; r < runs; ++r) {
      Sample s;
      if (!runOnce(command, vendors, s)) {
        std::fprintf(stderr, "%s failed for %s\n", command[0], label.c_str());
        return 1;
      }
      ms.push_back(s.milliseconds);
      mib.push_back(s.rss_mib);
    }
    double m = median(ms), r = median(mib);
    if (i == 2) {
      base_ms = m;
      base_mib = r;
    }
    std::printf("%-12s %8.2f ms %7.1f MiB   (%+.2f ms, %+.1f MiB)\n",
                label.c_str(), m, r, m - base_ms, r - base_mib);
  }
  return 0;
}
