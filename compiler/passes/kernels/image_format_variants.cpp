#include "compiler/passes/kernels/image_format_variants.h"

#include "compiler/analysis/kernel_metadata.h"
#include "device/image_abi.h"

#include <CL/cl.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/PromoteMemToReg.h>

#include <cstddef>

namespace weft::compiler {
namespace {

struct FormatVariant {
  const char *suffix;
  uint32_t order, type;
  int32_t element_size, channel_count;
};

// The formats a kernel gets a variant for: 8-bit and float RGBA, the
// layouts of most pictures and of most image-processing intermediates.
// Each variant compiles the kernel once more.
constexpr FormatVariant kFormatVariants[] = {
    {".rgba_unorm8", CL_RGBA, CL_UNORM_INT8, 4, 4},
    {".rgba_float", CL_RGBA, CL_FLOAT, 16, 4},
};

bool isDepthImage(const KernelArgument &arg) {
  return arg.type_name.find("depth") != std::string::npos;
}

// The body's image parameters.
llvm::SmallPtrSet<llvm::Value *, 8>
imageParameters(llvm::Function &body, const KernelDescription &k) {
  llvm::SmallPtrSet<llvm::Value *, 8> images;
  for (size_t i = 0; i < k.arguments.size(); ++i)
    if (k.arguments[i].kind == ArgumentKind::Image)
      images.insert(body.getArg(static_cast<unsigned>(i)));
  return images;
}

// Clang keeps each parameter in a stack slot until the optimizer runs:
// promotes the slots holding images, so their uses see the parameter.
void promoteImageSlots(llvm::Function &body,
                       const llvm::SmallPtrSet<llvm::Value *, 8> &images) {
  std::vector<llvm::AllocaInst *> slots;
  for (llvm::Value *image : images)
    for (llvm::User *user : image->users()) {
      auto *store = llvm::dyn_cast<llvm::StoreInst>(user);
      auto *slot =
          store ? llvm::dyn_cast<llvm::AllocaInst>(store->getPointerOperand())
                : nullptr;
      if (slot && store->getValueOperand() == image &&
          llvm::isAllocaPromotable(slot))
        slots.push_back(slot);
    }
  if (slots.empty())
    return;
  llvm::DominatorTree tree(body);
  llvm::PromoteMemToReg(slots, tree);
}

// Inlines every call that is passed an image (the image builtins, and the
// helpers they kept as calls), so the loads of the image's description sit
// in the body itself.
void inlineImageCalls(llvm::Function &body,
                      const llvm::SmallPtrSet<llvm::Value *, 8> &images) {
  for (bool changed = true; changed;) {
    changed = false;
    std::vector<llvm::CallBase *> calls;
    for (llvm::Instruction &inst : llvm::instructions(body)) {
      auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
      llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
      if (!callee || callee->isDeclaration())
        continue;
      for (llvm::Value *operand : call->args())
        if (images.contains(llvm::getUnderlyingObject(operand))) {
          calls.push_back(call);
          break;
        }
    }
    for (llvm::CallBase *call : calls) {
      llvm::InlineFunctionInfo info;
      changed |= llvm::InlineFunction(*call, info).isSuccess();
    }
  }
}

// An image parameter always points at its WeftImage: saying so lets LLVM
// load the description's fields ahead of the branches that use them, and
// out of the work-item loop.
void describeImageParameters(
    llvm::Function &body, const llvm::SmallPtrSet<llvm::Value *, 8> &images) {
  for (llvm::Argument &param : body.args()) {
    if (!images.contains(&param))
      continue;
    param.addAttr(llvm::Attribute::NonNull);
    param.addAttr(llvm::Attribute::getWithDereferenceableBytes(
        body.getContext(), sizeof(WeftImage)));
    param.addAttr(
        llvm::Attribute::getWithAlignment(body.getContext(), llvm::Align(8)));
  }
}

// Marks the loads of image descriptions invariant and, for a variant,
// replaces the format fields with the variant's constants.
void specializeImageLoads(llvm::Function &body,
                          const llvm::SmallPtrSet<llvm::Value *, 8> &images,
                          const FormatVariant *variant) {
  const llvm::DataLayout &layout = body.getParent()->getDataLayout();
  llvm::LLVMContext &ctx = body.getContext();
  std::vector<std::pair<llvm::LoadInst *, int32_t>> constants;
  for (llvm::Instruction &inst : llvm::instructions(body)) {
    auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst);
    if (!load || load->isVolatile())
      continue;
    llvm::APInt offset(64, 0);
    const llvm::Value *base =
        load->getPointerOperand()->stripAndAccumulateConstantOffsets(
            layout, offset, /*AllowNonInbounds=*/true);
    if (!images.contains(base))
      continue;
    load->setMetadata(llvm::LLVMContext::MD_invariant_load,
                      llvm::MDNode::get(ctx, {}));
    if (!variant || !load->getType()->isIntegerTy(32))
      continue;
    switch (offset.getZExtValue()) {
    case offsetof(WeftImage, channel_order):
      constants.emplace_back(load, static_cast<int32_t>(variant->order));
      break;
    case offsetof(WeftImage, channel_type):
      constants.emplace_back(load, static_cast<int32_t>(variant->type));
      break;
    case offsetof(WeftImage, element_size):
      constants.emplace_back(load, variant->element_size);
      break;
    case offsetof(WeftImage, channel_count):
      constants.emplace_back(load, variant->channel_count);
      break;
    default:
      break;
    }
  }
  for (auto &[load, value] : constants) {
    load->replaceAllUsesWith(llvm::ConstantInt::get(load->getType(), value));
    load->eraseFromParent();
  }
}

} // namespace

llvm::PreservedAnalyses
ImageFormatVariantsPass::run(llvm::Module &module,
                             llvm::ModuleAnalysisManager &) {
  std::vector<KernelRecord> records = readKernelRecords(module);
  std::vector<KernelRecord> variants;
  bool changed = false;
  for (KernelRecord &record : records) {
    if (!record.body || !record.description.variant_of.empty())
      continue;
    const KernelDescription &kernel = record.description;
    llvm::SmallPtrSet<llvm::Value *, 8> images =
        imageParameters(*record.body, kernel);
    if (images.empty())
      continue;
    changed = true;
    promoteImageSlots(*record.body, images);
    inlineImageCalls(*record.body, images);
    describeImageParameters(*record.body, images);
    bool any_depth = false;
    for (const KernelArgument &arg : kernel.arguments)
      any_depth |= arg.kind == ArgumentKind::Image && isDepthImage(arg);
    // Depth images are never RGBA: no variant would ever run.
    if (!any_depth)
      for (const FormatVariant &format : kFormatVariants) {
        llvm::ValueToValueMapTy map;
        llvm::Function *copy = llvm::CloneFunction(record.body, map);
        copy->setName(record.body->getName() + format.suffix);
        specializeImageLoads(*copy, imageParameters(*copy, kernel), &format);
        KernelRecord variant;
        variant.body = copy;
        variant.description = kernel;
        variant.description.name = kernel.name + format.suffix;
        variant.description.variant_of = kernel.name;
        variant.description.variant_channel_order = format.order;
        variant.description.variant_channel_type = format.type;
        variants.push_back(std::move(variant));
      }
    specializeImageLoads(*record.body, images, nullptr);
  }
  if (!changed)
    return llvm::PreservedAnalyses::all();
  for (KernelRecord &variant : variants)
    records.push_back(std::move(variant));
  writeKernelRecords(module, records);
  return llvm::PreservedAnalyses::none();
}

} // namespace weft::compiler
