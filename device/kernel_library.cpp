#include "device/kernel_library.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace weft {
namespace {

bool writeAll(int fd, const std::vector<unsigned char> &bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

std::string loaderError() {
  const char *message = dlerror();
  return message ? message : "unknown dynamic loader error";
}

// An anonymous memory file seen through /proc: no file system needed. Fails
// where memfd_create is missing or memory files may not be executed.
void *loadFromMemoryFile(const std::vector<unsigned char> &so,
                         std::string &error) {
  int fd = memfd_create("weft-program", MFD_CLOEXEC);
  if (fd < 0) {
    error = std::string("memfd_create: ") + std::strerror(errno);
    return nullptr;
  }
  void *handle = nullptr;
  if (writeAll(fd, so)) {
    std::string path = "/proc/self/fd/" + std::to_string(fd);
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      error = loaderError();
  } else {
    error = std::string("writing the memory file: ") + std::strerror(errno);
  }
  close(fd); // the loader keeps its own mapping
  return handle;
}

// The fallback: a temporary file, unlinked as soon as it is mapped.
void *loadFromTemporaryFile(const std::vector<unsigned char> &so,
                            std::string &error) {
  const char *base = std::getenv("TMPDIR");
  std::string path =
      std::string(base && *base ? base : "/tmp") + "/weft-program-XXXXXX";
  int fd = mkstemp(path.data());
  if (fd < 0) {
    error += std::string("; mkstemp: ") + std::strerror(errno);
    return nullptr;
  }
  void *handle = nullptr;
  if (writeAll(fd, so)) {
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      error += "; " + loaderError();
  } else {
    error += std::string("; writing ") + path + ": " + std::strerror(errno);
  }
  close(fd);
  unlink(path.c_str());
  return handle;
}

} // namespace

std::unique_ptr<KernelLibrary>
KernelLibrary::load(const std::vector<unsigned char> &shared_object,
                    std::string &error) {
  void *handle = loadFromMemoryFile(shared_object, error);
  if (!handle)
    handle = loadFromTemporaryFile(shared_object, error);
  if (!handle)
    return nullptr;
  error.clear();
  return std::unique_ptr<KernelLibrary>(new KernelLibrary(handle));
}

KernelLibrary::~KernelLibrary() { dlclose(handle_); }

void *KernelLibrary::symbol(const std::string &name) const {
  return dlsym(handle_, name.c_str());
}

} // namespace weft
