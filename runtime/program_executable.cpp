#include "runtime/program_executable.h"

#include "device/clock.h"
#include "device/kernel_library.h"
#include "runtime/compiler_loader.h"
#include "runtime/debug_log.h"
#include "runtime/program_cache.h"
#include "runtime/settings.h"

#include <algorithm>

namespace weft {
namespace {

using compiler::KernelDescription;

const KernelDescription *findKernel(const std::vector<KernelDescription> &all,
                                    const std::string &name) {
  for (const KernelDescription &k : all)
    if (k.name == name)
      return &k;
  return nullptr;
}

// Finds the entry points of `kernel` in `library`; false if one it needs is
// missing.
bool findEntries(const KernelLibrary &library, KernelDescription &kernel) {
  kernel.entry = reinterpret_cast<WorkGroupFunction>(
      library.symbol(compiler::groupEntrySymbol(kernel.name)));
  // Also kernels with async copies have one (for the checking mode).
  kernel.work_item_entry = reinterpret_cast<WorkItemFunction>(
      library.symbol(compiler::workItemEntrySymbol(kernel.name)));
  if (kernel.plan.read_through)
    kernel.read_through_entry = reinterpret_cast<WorkGroupFunction>(
        library.symbol(compiler::readThroughEntrySymbol(kernel.name)));
  return kernel.entry &&
         (!kernel.plan.work_item_entry || kernel.work_item_entry) &&
         (!kernel.plan.read_through || kernel.read_through_entry);
}

} // namespace

std::shared_ptr<ProgramExecutable>
ProgramExecutable::load(ProgramImage image, std::string cache_key,
                        std::string &error) {
  std::shared_ptr<ProgramExecutable> executable(new (std::nothrow)
                                                    ProgramExecutable);
  if (!executable) {
    error = "error: out of host memory\n";
    return nullptr;
  }
  ProgramExecutable &e = *executable;
  e.global_variable_bytes_ = image.global_variable_bytes;
  e.cache_key_ = std::move(cache_key);
  // The kernels the compiler made for image formats are not kernels of
  // the program an application can name: loadPart folds them into theirs.
  for (const KernelDescription &k : image.kernels)
    if (k.variant_of.empty())
      e.kernels_.push_back(k);
  e.part_of_.resize(e.kernels_.size());
  for (size_t part = 0; part < image.parts.size(); ++part) {
    e.parts_.push_back(std::make_unique<Part>());
    for (const std::string &name : image.parts[part].kernels)
      for (size_t k = 0; k < e.kernels_.size(); ++k)
        if (e.kernels_[k].name == name)
          e.part_of_[k] = part;
  }
  e.failures_.resize(image.parts.size());
  e.image_ = std::move(image);
  for (size_t part = 0; part < e.parts_.size(); ++part)
    if (!e.image_.parts[part].deferred() && !e.loadPart(part, error))
      return nullptr;
  if (debugLogEnabled())
    for (size_t k = 0; k < e.kernels_.size(); ++k) {
      const KernelDescription &kernel = e.kernels_[k];
      debugLog("kernel %s: %s%s", kernel.name.c_str(),
               compiler::describePlan(kernel.plan).c_str(),
               e.parts_[e.part_of_[k]]->ready ? "" : "; compiled on first use");
      if (!kernel.plan.read_through_note.empty())
        debugLog("kernel %s: async copies: %s", kernel.name.c_str(),
                 kernel.plan.read_through_note.c_str());
    }
  return executable;
}

ProgramExecutable::~ProgramExecutable() = default;

bool ProgramExecutable::loadPart(size_t part, std::string &error) const {
  const ProgramImagePart &code = image_.parts[part];
  std::unique_ptr<KernelLibrary> library = KernelLibrary::load(
      code.shared_object, settings().temporaryDirectory(), error);
  if (!library) {
    error = "error: cannot load the program's native code: " + error + "\n";
    return false;
  }
  // The kernels first, then their image format variants, whose frames
  // they take on (a launch may run either).
  for (bool variants : {false, true})
    for (const std::string &name : code.kernels) {
      const KernelDescription *found = findKernel(image_.kernels, name);
      if (!found || found->variant_of.empty() == variants)
        continue;
      KernelDescription loaded = *found;
      if (!findEntries(*library, loaded)) {
        error =
            "error: the program's native code lacks kernel '" + name + "'\n";
        return false;
      }
      const std::string &owner = variants ? loaded.variant_of : loaded.name;
      for (KernelDescription &kernel : kernels_) {
        if (kernel.name != owner)
          continue;
        if (!variants) {
          kernel.entry = loaded.entry;
          kernel.work_item_entry = loaded.work_item_entry;
          kernel.read_through_entry = loaded.read_through_entry;
          kernel.private_memory = loaded.private_memory;
          kernel.group_entry_frame = loaded.group_entry_frame;
          continue;
        }
        if (!loaded.variant_unit_arguments.empty())
          kernel.unit_stride_variants.push_back(
              {loaded.variant_unit_arguments, loaded.entry,
               loaded.work_item_entry});
        else
          kernel.image_variants.push_back(
              {loaded.variant_channel_order, loaded.variant_channel_type,
               loaded.entry, loaded.work_item_entry});
        kernel.private_memory =
            std::max(kernel.private_memory, loaded.private_memory);
        kernel.group_entry_frame =
            std::max(kernel.group_entry_frame, loaded.group_entry_frame);
      }
    }
  if (debugLogEnabled())
    for (const std::string &name : code.kernels)
      if (const KernelDescription *k = findKernel(kernels_, name))
        debugLog("kernel %s: %llu bytes of private memory per work-item, "
                 "%zu image format variant(s), %zu for strides of 1",
                 name.c_str(),
                 static_cast<unsigned long long>(k->private_memory),
                 k->image_variants.size(), k->unit_stride_variants.size());
  parts_[part]->library = std::move(library);
  parts_[part]->ready.store(true, std::memory_order_release);
  return true;
}

bool ProgramExecutable::compileParts(const std::vector<size_t> &parts,
                                     std::string &log) const {
  std::vector<size_t> deferred;
  for (size_t part : parts) {
    if (parts_[part]->ready.load(std::memory_order_relaxed))
      continue;
    if (!failures_[part].empty()) {
      log += failures_[part];
      return false;
    }
    deferred.push_back(part);
  }
  if (deferred.empty())
    return true;
  std::string error;
  compiler::Compiler *compiler = loadCompiler(error);
  if (!compiler) {
    log += "error: kernels compiled on first use need the compiler: " + error +
           "\n";
    return false;
  }
  std::vector<compiler::DeferredPart> inputs;
  for (size_t part : deferred)
    inputs.push_back({image_.parts[part].kernels, image_.parts[part].bitcode,
                      image_.parts[part].optimize});
  uint64_t start = monotonicNanoseconds();
  std::vector<compiler::PartCode> code =
      compiler->compileDeferred(inputs, image_.kernels);
  bool compiled = true;
  for (size_t i = 0; i < deferred.size(); ++i) {
    size_t part = deferred[i];
    if (code[i].shared_object.empty()) {
      failures_[part] = "error: compiling kernel '" +
                        image_.parts[part].kernels.front() +
                        "' on its first use failed:\n" + code[i].log;
      log += failures_[part];
      compiled = false;
      continue;
    }
    image_.parts[part].shared_object = std::move(code[i].shared_object);
    image_.parts[part].bitcode.clear();
    debugLogRemarks(code[i].log);
    if (!loadPart(part, error)) {
      failures_[part] = error;
      log += error;
      compiled = false;
    }
  }
  debugLog("compiled %zu part(s) on first use in %.1f ms", deferred.size(),
           (monotonicNanoseconds() - start) / 1e6);
  if (!cache_key_.empty())
    ProgramCache::instance().store(cache_key_, serializeProgramImage(image_));
  return compiled;
}

cl_int ProgramExecutable::prepareKernel(size_t index, std::string &log) const {
  size_t part = part_of_[index];
  if (parts_[part]->ready.load(std::memory_order_acquire))
    return CL_SUCCESS;
  std::lock_guard<std::mutex> lock(mutex_);
  return compileParts({part}, log) ? CL_SUCCESS : CL_OUT_OF_RESOURCES;
}

const KernelLibrary &ProgramExecutable::libraryOf(size_t index) const {
  return *parts_[part_of_[index]]->library;
}

std::vector<unsigned char> ProgramExecutable::binary(std::string &log) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<size_t> all(parts_.size());
  for (size_t part = 0; part < all.size(); ++part)
    all[part] = part;
  if (!compileParts(all, log))
    return {};
  return serializeProgramImage(image_);
}

} // namespace weft
