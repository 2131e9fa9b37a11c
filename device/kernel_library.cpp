#include "device/kernel_library.h"

#include "device/kernel_faults.h"

#include <link.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib> // mkstemp
#include <cstring>
#include <mutex>
#include <set>

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

// The handles of the loaded kernel libraries. dlopen returns an already
// loaded library when the path matches, which would hand one program
// another's code: a handle seen twice is refused.
// Never destroyed, like every registry of Weft's: an application may
// release a program from its own static destructors, after exit() would
// have destroyed ours.
std::mutex &live_handles_mutex = *new std::mutex();
std::set<void *> &live_handles =
    *new std::set<void *>(); // guarded by live_handles_mutex

void *openLibrary(const std::string &path, std::string &error) {
  std::lock_guard<std::mutex> lock(live_handles_mutex);
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    error += loaderError();
    return nullptr;
  }
  if (!live_handles.insert(handle).second) {
    dlclose(handle);
    error += "the dynamic loader returned a library already in use";
    return nullptr;
  }
  return handle;
}

// An anonymous memory file seen through /proc: no file system needed. Fails
// where memfd_create is missing or memory files may not be executed. On
// success `fd` stays open for as long as the library is loaded.
void *loadFromMemoryFile(const std::vector<unsigned char> &so, int &fd,
                         std::string &error) {
  fd = memfd_create("weft-program", MFD_CLOEXEC);
  if (fd < 0) {
    error = std::string("memfd_create: ") + std::strerror(errno);
    return nullptr;
  }
  void *handle = nullptr;
  if (writeAll(fd, so))
    handle = openLibrary("/proc/self/fd/" + std::to_string(fd), error);
  else
    error = std::string("writing the memory file: ") + std::strerror(errno);
  if (!handle) {
    close(fd);
    fd = -1;
  }
  return handle;
}

// The fallback: a temporary file, unlinked as soon as it is mapped.
void *loadFromTemporaryFile(const std::vector<unsigned char> &so,
                            const std::string &directory, std::string &error) {
  std::string path = directory + "/weft-program-XXXXXX";
  int fd = mkstemp(path.data());
  if (fd < 0) {
    error += std::string("; mkstemp: ") + std::strerror(errno);
    return nullptr;
  }
  void *handle = nullptr;
  if (writeAll(fd, so)) {
    error += "; ";
    handle = openLibrary(path, error);
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
                    const std::string &temporary_directory,
                    std::string &error) {
  int memory_file = -1;
  void *handle = loadFromMemoryFile(shared_object, memory_file, error);
  if (!handle)
    handle = loadFromTemporaryFile(shared_object, temporary_directory, error);
  if (!handle)
    return nullptr;
  error.clear();
  // Kernels are about to run: Weft's fault handlers go in front again
  // (device/kernel_faults.h), once per program rather than per launch.
  ensureFaultHandlers();
  std::unique_ptr<KernelLibrary> library(
      new KernelLibrary(handle, memory_file));
  // Its executable segments, and all its segments (its program-scope
  // variables among them), found by the base address the loader chose.
  link_map *map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map) {
    struct Search {
      ElfW(Addr) base;
      uintptr_t begin = UINTPTR_MAX, end = 0;
      uintptr_t image_begin = UINTPTR_MAX, image_end = 0;
    } search{map->l_addr};
    dl_iterate_phdr(
        [](dl_phdr_info *info, size_t, void *opaque) {
          auto *s = static_cast<Search *>(opaque);
          if (info->dlpi_addr != s->base)
            return 0;
          for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
            const ElfW(Phdr) &segment = info->dlpi_phdr[i];
            if (segment.p_type != PT_LOAD)
              continue;
            uintptr_t start = info->dlpi_addr + segment.p_vaddr;
            s->image_begin = std::min(s->image_begin, start);
            s->image_end = std::max(s->image_end, start + segment.p_memsz);
            if (!(segment.p_flags & PF_X))
              continue;
            s->begin = std::min(s->begin, start);
            s->end = std::max(s->end, start + segment.p_memsz);
          }
          return 1;
        },
        &search);
    if (search.end > search.begin) {
      library->code_begin_ = search.begin;
      library->code_end_ = search.end;
    }
    if (search.image_end > search.image_begin) {
      library->image_begin_ = search.image_begin;
      library->image_end_ = search.image_end;
    }
  }
  return library;
}

KernelLibrary::~KernelLibrary() {
  {
    std::lock_guard<std::mutex> lock(live_handles_mutex);
    dlclose(handle_);
    live_handles.erase(handle_);
  }
  if (memory_file_ >= 0)
    close(memory_file_);
}

void *KernelLibrary::symbol(const std::string &name) const {
  return dlsym(handle_, name.c_str());
}

} // namespace weft
