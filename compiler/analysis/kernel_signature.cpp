#include "compiler/analysis/kernel_signature.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MathExtras.h>

namespace weft::compiler {
namespace {

std::string metadataString(const llvm::Function &f, const char *kind,
                           unsigned index) {
  const llvm::MDNode *node = f.getMetadata(kind);
  if (!node || index >= node->getNumOperands())
    return {};
  if (auto *s = llvm::dyn_cast<llvm::MDString>(node->getOperand(index)))
    return s->getString().str();
  return {};
}

int64_t metadataInt(const llvm::Function &f, const char *kind, unsigned index,
                    int64_t fallback) {
  const llvm::MDNode *node = f.getMetadata(kind);
  if (!node || index >= node->getNumOperands())
    return fallback;
  if (auto *c = llvm::mdconst::dyn_extract<llvm::ConstantInt>(
          node->getOperand(index)))
    return c->getSExtValue();
  return fallback;
}

AccessQualifier accessQualifier(const std::string &text) {
  if (text == "read_only")
    return AccessQualifier::ReadOnly;
  if (text == "write_only")
    return AccessQualifier::WriteOnly;
  if (text == "read_write")
    return AccessQualifier::ReadWrite;
  return AccessQualifier::None;
}

uint32_t typeQualifiers(const std::string &text) {
  uint32_t q = TypeQualifierNone;
  if (text.find("const") != std::string::npos)
    q |= TypeQualifierConst;
  if (text.find("restrict") != std::string::npos)
    q |= TypeQualifierRestrict;
  if (text.find("volatile") != std::string::npos)
    q |= TypeQualifierVolatile;
  if (text.find("pipe") != std::string::npos)
    q |= TypeQualifierPipe;
  return q;
}

// The base type names Clang gives image arguments (a struct or typedef may
// also start with "image").
bool isImageType(const std::string &type) {
  static const char *const kImageTypes[] = {"image1d_t",
                                            "image1d_array_t",
                                            "image1d_buffer_t",
                                            "image2d_t",
                                            "image2d_array_t",
                                            "image2d_depth_t",
                                            "image2d_array_depth_t",
                                            "image3d_t"};
  for (const char *name : kImageTypes)
    if (type == name)
      return true;
  return false;
}

// The three work-group size attributes share one shape: !{i32 x, i32 y, i32 z}.
void readSizeTriple(const llvm::Function &f, const char *kind,
                    uint64_t out[3]) {
  for (unsigned d = 0; d < 3; ++d)
    out[d] = static_cast<uint64_t>(metadataInt(f, kind, d, 0));
}

std::string vecTypeHint(const llvm::Function &f) {
  const llvm::MDNode *node = f.getMetadata("vec_type_hint");
  if (!node || node->getNumOperands() < 2)
    return {};
  auto *type_md = llvm::dyn_cast<llvm::ConstantAsMetadata>(node->getOperand(0));
  if (!type_md)
    return {};
  llvm::Type *type = type_md->getType();
  bool is_signed = metadataInt(f, "vec_type_hint", 1, 1) != 0;
  unsigned lanes = 1;
  if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    lanes = vector->getNumElements();
    type = vector->getElementType();
  }
  std::string base;
  if (type->isFloatTy())
    base = "float";
  else if (type->isDoubleTy())
    base = "double";
  else if (type->isHalfTy())
    base = "half";
  else if (type->isIntegerTy(8))
    base = is_signed ? "char" : "uchar";
  else if (type->isIntegerTy(16))
    base = is_signed ? "short" : "ushort";
  else if (type->isIntegerTy(32))
    base = is_signed ? "int" : "uint";
  else if (type->isIntegerTy(64))
    base = is_signed ? "long" : "ulong";
  else
    return {};
  return lanes > 1 ? base + std::to_string(lanes) : base;
}

std::string attributeString(const KernelDescription &k,
                            const std::string &vec_hint) {
  auto triple = [](const char *name, const uint64_t v[3]) {
    return std::string(name) + "(" + std::to_string(v[0]) + "," +
           std::to_string(v[1]) + "," + std::to_string(v[2]) + ")";
  };
  std::string text;
  auto append = [&](const std::string &a) {
    if (!text.empty())
      text += " ";
    text += a;
  };
  if (k.reqd_work_group_size[0])
    append(triple("reqd_work_group_size", k.reqd_work_group_size));
  if (k.work_group_size_hint[0])
    append(triple("work_group_size_hint", k.work_group_size_hint));
  if (!vec_hint.empty())
    append("vec_type_hint(" + vec_hint + ")");
  return text;
}

} // namespace

uint32_t defaultSubGroupSize(const llvm::Function &kernel) {
  llvm::StringRef features =
      kernel.getFnAttribute("target-features").getValueAsString();
  auto has = [&](llvm::StringRef feature) {
    for (llvm::StringRef part : llvm::split(features, ','))
      if (part == feature)
        return true;
    return false;
  };
  if (has("+avx512f") && !has("-evex512"))
    return 16;
  if (has("+avx"))
    return 8;
  return 4;
}

bool describeKernel(const llvm::Function &kernel, KernelDescription &out,
                    std::string &error) {
  const llvm::DataLayout &layout = kernel.getParent()->getDataLayout();
  out.name = kernel.getName().str();
  readSizeTriple(kernel, "reqd_work_group_size", out.reqd_work_group_size);
  readSizeTriple(kernel, "work_group_size_hint", out.work_group_size_hint);
  out.required_sub_groups = static_cast<uint64_t>(
      metadataInt(kernel, kRequiredSubGroupsMetadata, 0, 0));
  // A required sub-group size (intel_reqd_sub_group_size, SPIR-V's
  // SubgroupSize) must be one the device lists.
  int64_t required = metadataInt(kernel, "intel_reqd_sub_group_size", 0, 0);
  if (required != 0) {
    bool offered = false;
    for (uint32_t size : kSubGroupSizes)
      offered = offered || required == size;
    if (!offered) {
      error = "kernel '" + out.name + "' requires sub-groups of " +
              std::to_string(required) +
              " work-items; this device's sub-group sizes are 1, 2, 4, 8, "
              "16, 32 and 64 (CL_DEVICE_SUB_GROUP_SIZES_INTEL)";
      return false;
    }
  }
  out.required_sub_group_size = static_cast<uint32_t>(required);
  out.sub_group_size = required ? static_cast<uint32_t>(required)
                                : defaultSubGroupSize(kernel);
  out.attributes = attributeString(out, vecTypeHint(kernel));
  // Clang sets this for OpenCL C 1.x and for -cl-uniform-work-group-size.
  out.uniform_work_group_size =
      kernel.getFnAttribute("uniform-work-group-size").getValueAsString() ==
      "true";

  uint32_t offset = 0;
  for (const llvm::Argument &param : kernel.args()) {
    unsigned i = param.getArgNo();
    KernelArgument arg;
    arg.name = metadataString(kernel, "kernel_arg_name", i);
    arg.type_name = metadataString(kernel, "kernel_arg_type", i);
    arg.access =
        accessQualifier(metadataString(kernel, "kernel_arg_access_qual", i));
    arg.type_qualifiers =
        typeQualifiers(metadataString(kernel, "kernel_arg_type_qual", i));
    switch (metadataInt(kernel, "kernel_arg_addr_space", i, 0)) {
    case 1:
      arg.address_space = AddressSpace::Global;
      break;
    case 2:
      arg.address_space = AddressSpace::Constant;
      break;
    case 3:
      arg.address_space = AddressSpace::Local;
      break;
    default:
      arg.address_space = AddressSpace::Private;
    }

    llvm::Type *type = param.getType();
    const std::string base_type =
        metadataString(kernel, "kernel_arg_base_type", i);
    if (isImageType(base_type)) {
      // The address of the image's WeftImage (device/image_abi.h).
      arg.kind = ArgumentKind::Image;
      arg.address_space = AddressSpace::Global;
      arg.size = sizeof(void *);
      arg.alignment = alignof(void *);
    } else if (base_type == "sampler_t") {
      // The sampler's CLK_* bits, in a pointer-sized slot.
      arg.kind = ArgumentKind::Sampler;
      arg.size = sizeof(void *);
      arg.alignment = alignof(void *);
    } else if (arg.type_qualifiers & TypeQualifierPipe) {
      // The address of the pipe's ring (device/pipe_abi.h).
      arg.kind = ArgumentKind::Pipe;
      arg.size = sizeof(void *);
      arg.alignment = alignof(void *);
    } else if (arg.address_space == AddressSpace::Local) {
      arg.kind = ArgumentKind::LocalBuffer;
      arg.size = 0; // any size: it is the allocation size
      arg.alignment = 8;
    } else if (arg.address_space == AddressSpace::Global ||
               arg.address_space == AddressSpace::Constant) {
      arg.kind = ArgumentKind::Buffer;
      arg.size = sizeof(void *);
      arg.alignment = alignof(void *);
    } else if (param.hasByValAttr()) {
      llvm::Type *value_type = param.getParamByValType();
      arg.kind = ArgumentKind::Value;
      arg.size = static_cast<uint32_t>(layout.getTypeAllocSize(value_type));
      arg.alignment = static_cast<uint32_t>(
          std::max<uint64_t>(param.getParamAlign().valueOrOne().value(),
                             layout.getABITypeAlign(value_type).value()));
    } else {
      arg.kind = ArgumentKind::Value;
      arg.size = static_cast<uint32_t>(layout.getTypeAllocSize(type));
      // OpenCL aligns vectors to their size (a float3 to 16 bytes).
      arg.alignment = static_cast<uint32_t>(
          type->isVectorTy() ? llvm::PowerOf2Ceil(arg.size)
                             : layout.getABITypeAlign(type).value());
    }
    arg.alignment =
        std::min<uint32_t>(std::max<uint32_t>(arg.alignment, 1), 128);
    offset = static_cast<uint32_t>(llvm::alignTo(offset, arg.alignment));
    arg.offset = offset;
    // A __local argument's slot holds its offset into local memory.
    offset += arg.kind == ArgumentKind::LocalBuffer ? 8 : arg.size;
    out.arguments.push_back(std::move(arg));
  }
  out.argument_block_size = static_cast<uint32_t>(llvm::alignTo(offset, 16));
  return true;
}

} // namespace weft::compiler
