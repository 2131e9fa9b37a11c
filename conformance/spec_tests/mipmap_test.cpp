// Mipmapped images (cl_khr_mipmap_image, cl_khr_mipmap_image_writes), from
// the OpenCL 3.0 API spec's "Mipmap Images" and "Specifying Mipmap Levels to
// Image Operations", its sampler property table, and the OpenCL C spec's
// "Mipmapped Image Reads and Queries" and "Mipmapped Image Writes". Every
// expected value comes from a host reference here: each level halves the
// one before (rounding down, to 1) and holds texels that name their level
// and place, so a read that lands on the wrong level or texel says which.
#include "api_fixture.h"

#include <CL/cl_ext.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Float4 = std::array<float, 4>;

// An image's shape: its type and level-0 size (height and depth 1 where
// the type has none; layers for arrays).
struct Shape {
  cl_mem_object_type type;
  size_t width, height, depth, layers;
};

size_t halve(size_t size, unsigned level) {
  size >>= level;
  return size ? size : 1;
}

// Level `level`'s texels along x, y and z as an origin/region counts them
// (a 1-D array's layers along y, a 2-D array's along z).
std::array<size_t, 3> levelExtent(const Shape &s, unsigned level) {
  switch (s.type) {
  case CL_MEM_OBJECT_IMAGE1D:
    return {halve(s.width, level), 1, 1};
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    return {halve(s.width, level), s.layers, 1};
  case CL_MEM_OBJECT_IMAGE2D:
    return {halve(s.width, level), halve(s.height, level), 1};
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    return {halve(s.width, level), halve(s.height, level), s.layers};
  default:
    return {halve(s.width, level), halve(s.height, level),
            halve(s.depth, level)};
  }
}

// The origin coordinate that names the level (the spec's list).
int levelCoordinate(cl_mem_object_type type) {
  switch (type) {
  case CL_MEM_OBJECT_IMAGE1D:
    return 1;
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
  case CL_MEM_OBJECT_IMAGE2D:
    return 2;
  default:
    return 3;
  }
}

// The value stored at a texel of a 32-bit single-channel image: its level
// and coordinates, one byte each.
uint32_t texelTag(unsigned level, size_t x, size_t y, size_t z) {
  return uint32_t(level) << 24 | uint32_t(z) << 16 | uint32_t(y) << 8 |
         uint32_t(x);
}

class MipmapFixture : public WeftFixture {
public:
  cl_mem image(const Shape &s, cl_uint levels, const cl_image_format &format,
               cl_mem_flags flags = CL_MEM_READ_WRITE) {
    cl_image_desc desc = {};
    desc.image_type = s.type;
    desc.image_width = s.width;
    desc.image_height = s.height;
    desc.image_depth = s.depth;
    desc.image_array_size = s.layers;
    desc.num_mip_levels = levels;
    cl_int err;
    cl_mem m = clCreateImage(context, flags, &format, &desc, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    return m;
  }

  // The origin of `at` in level `level` (the level in its coordinate).
  static std::array<size_t, 4> origin(const Shape &s, unsigned level,
                                      std::array<size_t, 3> at = {0, 0, 0}) {
    std::array<size_t, 4> o = {at[0], at[1], at[2], 0};
    o[levelCoordinate(s.type)] = level;
    return o;
  }

  // Writes every level of a CL_R/CL_UNSIGNED_INT32 image with texelTag.
  void writeTags(cl_mem img, const Shape &s, cl_uint levels) {
    for (unsigned level = 0; level < levels; ++level) {
      std::array<size_t, 3> e = levelExtent(s, level);
      std::vector<uint32_t> texels;
      for (size_t z = 0; z < e[2]; ++z)
        for (size_t y = 0; y < e[1]; ++y)
          for (size_t x = 0; x < e[0]; ++x)
            texels.push_back(texelTag(level, x, y, z));
      std::array<size_t, 4> o = origin(s, level);
      REQUIRE(clEnqueueWriteImage(queue, img, CL_TRUE, o.data(), e.data(), 0, 0,
                                  texels.data(), 0, nullptr,
                                  nullptr) == CL_SUCCESS);
    }
  }

  std::vector<uint32_t> readLevel(cl_mem img, const Shape &s, unsigned level) {
    std::array<size_t, 3> e = levelExtent(s, level);
    std::vector<uint32_t> texels(e[0] * e[1] * e[2]);
    std::array<size_t, 4> o = origin(s, level);
    REQUIRE(clEnqueueReadImage(queue, img, CL_TRUE, o.data(), e.data(), 0, 0,
                               texels.data(), 0, nullptr,
                               nullptr) == CL_SUCCESS);
    return texels;
  }

  // Checks that every level holds texelTag.
  void checkTags(cl_mem img, const Shape &s, cl_uint levels) {
    for (unsigned level = 0; level < levels; ++level) {
      INFO("level " << level);
      std::array<size_t, 3> e = levelExtent(s, level);
      std::vector<uint32_t> got = readLevel(img, s, level);
      size_t i = 0, wrong = 0;
      for (size_t z = 0; z < e[2]; ++z)
        for (size_t y = 0; y < e[1]; ++y)
          for (size_t x = 0; x < e[0]; ++x, ++i)
            wrong += got[i] != texelTag(level, x, y, z);
      CHECK(wrong == 0);
    }
  }

  cl_sampler sampler(cl_filter_mode filter, cl_filter_mode mip_filter,
                     const float *lod_min = nullptr,
                     const float *lod_max = nullptr) {
    std::vector<cl_sampler_properties> props = {
        CL_SAMPLER_NORMALIZED_COORDS,   CL_TRUE,
        CL_SAMPLER_ADDRESSING_MODE,     CL_ADDRESS_CLAMP_TO_EDGE,
        CL_SAMPLER_FILTER_MODE,         filter,
        CL_SAMPLER_MIP_FILTER_MODE_KHR, mip_filter};
    for (auto [name, value] : {std::pair{CL_SAMPLER_LOD_MIN_KHR, lod_min},
                               std::pair{CL_SAMPLER_LOD_MAX_KHR, lod_max}}) {
      if (!value)
        continue;
      cl_sampler_properties bits = 0;
      std::memcpy(&bits, value, sizeof(float));
      props.push_back(name);
      props.push_back(bits);
    }
    props.push_back(0);
    cl_int err;
    cl_sampler s = clCreateSamplerWithProperties(context, props.data(), &err);
    REQUIRE(err == CL_SUCCESS);
    return s;
  }

  template <typename T> std::vector<T> read(cl_mem m, size_t count) {
    std::vector<T> values(count);
    REQUIRE(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, count * sizeof(T),
                                values.data(), 0, nullptr,
                                nullptr) == CL_SUCCESS);
    return values;
  }

  void run1(cl_kernel k, size_t count) {
    REQUIRE(runAndWait(k, 1, &count, nullptr) == CL_SUCCESS);
  }
};

const cl_image_format kTagFormat = {CL_R, CL_UNSIGNED_INT32};
const cl_image_format kFloatFormat = {CL_RGBA, CL_FLOAT};

const Shape kShapes[] = {
    {CL_MEM_OBJECT_IMAGE1D, 13, 1, 1, 1},
    {CL_MEM_OBJECT_IMAGE1D_ARRAY, 13, 1, 1, 3},
    {CL_MEM_OBJECT_IMAGE2D, 13, 6, 1, 1},
    {CL_MEM_OBJECT_IMAGE2D_ARRAY, 9, 12, 1, 2},
    {CL_MEM_OBJECT_IMAGE3D, 7, 5, 10, 1},
};

// Levels down to 1x1(x1): floor(log2(largest)) + 1.
cl_uint fullLevels(const Shape &s) {
  size_t largest = s.width;
  if (s.type != CL_MEM_OBJECT_IMAGE1D && s.type != CL_MEM_OBJECT_IMAGE1D_ARRAY)
    largest = std::max(largest, s.height);
  if (s.type == CL_MEM_OBJECT_IMAGE3D)
    largest = std::max(largest, s.depth);
  cl_uint levels = 1;
  while (largest > 1) {
    largest >>= 1;
    ++levels;
  }
  return levels;
}

const char *typeName(cl_mem_object_type type) {
  switch (type) {
  case CL_MEM_OBJECT_IMAGE1D:
    return "1-D";
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    return "1-D array";
  case CL_MEM_OBJECT_IMAGE2D:
    return "2-D";
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    return "2-D array";
  default:
    return "3-D";
  }
}

} // namespace

TEST_CASE_METHOD(MipmapFixture,
                 "Mipmapped images: creation rules, sizes and queries",
                 "[mipmaps]") {
  REQUIRE(hasExtension("cl_khr_mipmap_image"));
  REQUIRE(hasExtension("cl_khr_mipmap_image_writes"));
  const Shape plain = {CL_MEM_OBJECT_IMAGE2D, 8, 4, 1, 1};
  cl_image_desc desc = {};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = 8;
  desc.image_height = 4;
  cl_int err;
  // 8x4, 4x2, 2x1, 1x1: four levels at most.
  cl_mem img = image(plain, 4, {CL_RGBA, CL_UNSIGNED_INT8});
  cl_uint levels = 0;
  CHECK(clGetImageInfo(img, CL_IMAGE_NUM_MIP_LEVELS, sizeof levels, &levels,
                       nullptr) == CL_SUCCESS);
  CHECK(levels == 4);
  size_t size = 0;
  CHECK(clGetMemObjectInfo(img, CL_MEM_SIZE, sizeof size, &size, nullptr) ==
        CL_SUCCESS);
  CHECK(size >= (32 + 8 + 2 + 1) * 4);
  clReleaseMemObject(img);
  cl_image_format rgba8 = {CL_RGBA, CL_UNSIGNED_INT8};
  desc.num_mip_levels = 5; // more than 8x4 has
  CHECK(clCreateImage(context, CL_MEM_READ_WRITE, &rgba8, &desc, nullptr,
                      &err) == nullptr);
  CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR);
  // Levels are the image's own: no host pointer.
  desc.num_mip_levels = 2;
  std::vector<uint8_t> host(1024);
  CHECK(clCreateImage(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &rgba8,
                      &desc, host.data(), &err) == nullptr);
  CHECK(err == CL_INVALID_HOST_PTR);
  CHECK(clCreateImage(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, &rgba8,
                      &desc, host.data(), &err) == nullptr);
  CHECK(err == CL_INVALID_HOST_PTR);
  // No mipmapped images over buffers.
  cl_mem storage = buffer(4096);
  cl_image_desc over = {};
  over.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
  over.image_width = 64;
  over.num_mip_levels = 2;
  over.mem_object = storage;
  CHECK(clCreateImage(context, CL_MEM_READ_WRITE, &rgba8, &over, nullptr,
                      &err) == nullptr);
  CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR);
  clReleaseMemObject(storage);
  // 0 and 1 both make an image of one level; the query returns what was
  // asked.
  for (cl_uint asked : {0u, 1u}) {
    img = image(plain, asked, rgba8);
    CHECK(clGetImageInfo(img, CL_IMAGE_NUM_MIP_LEVELS, sizeof levels, &levels,
                         nullptr) == CL_SUCCESS);
    CHECK(levels == asked);
    clReleaseMemObject(img);
  }
}

TEST_CASE_METHOD(MipmapFixture,
                 "Mipmapped images: host commands on each level of every type",
                 "[mipmaps]") {
  for (const Shape &s : kShapes) {
    INFO(typeName(s.type) << " image");
    const cl_uint levels = fullLevels(s);
    cl_mem img = image(s, levels, kTagFormat);
    writeTags(img, s, levels);
    checkTags(img, s, levels);
    // A level the image lacks, and a region past the level's edge.
    std::array<size_t, 4> bad = origin(s, levels);
    std::array<size_t, 3> one = {1, 1, 1};
    uint32_t texel = 0;
    CHECK(clEnqueueReadImage(queue, img, CL_TRUE, bad.data(), one.data(), 0, 0,
                             &texel, 0, nullptr,
                             nullptr) == CL_INVALID_MIP_LEVEL);
    std::array<size_t, 3> past = levelExtent(s, 1);
    past[0] += 1;
    std::vector<uint32_t> scratch(4096);
    CHECK(clEnqueueReadImage(queue, img, CL_TRUE, origin(s, 1).data(),
                             past.data(), 0, 0, scratch.data(), 0, nullptr,
                             nullptr) == CL_INVALID_VALUE);
    // Fill all of level 1 but its first texel, and map level 1: the mapped
    // rows and slices are level 1's.
    std::array<size_t, 3> e1 = levelExtent(s, 1);
    std::array<size_t, 3> from = {1, 0, 0};
    std::array<size_t, 3> region = {e1[0] - 1, e1[1], e1[2]};
    cl_uint4 colour = {{0xabcdef12u, 0, 0, 0}};
    CHECK(clEnqueueFillImage(queue, img, &colour, origin(s, 1, from).data(),
                             region.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    size_t row_pitch = 0, slice_pitch = 0;
    cl_int err;
    auto *mapped = static_cast<uint32_t *>(clEnqueueMapImage(
        queue, img, CL_TRUE, CL_MAP_READ, origin(s, 1).data(), e1.data(),
        &row_pitch, &slice_pitch, 0, nullptr, nullptr, &err));
    REQUIRE(err == CL_SUCCESS);
    CHECK(row_pitch >= e1[0] * 4);
    size_t wrong = 0;
    for (size_t z = 0; z < e1[2]; ++z)
      for (size_t y = 0; y < e1[1]; ++y)
        for (size_t x = 0; x < e1[0]; ++x) {
          // A 1-D array steps over layers by its slice pitch.
          size_t y_step =
              s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slice_pitch : row_pitch;
          uint32_t value = *reinterpret_cast<uint32_t *>(
              reinterpret_cast<char *>(mapped) + x * 4 + y * y_step +
              z * slice_pitch);
          wrong += value != (x == 0 ? texelTag(1, 0, y, z) : 0xabcdef12u);
        }
    CHECK(wrong == 0);
    CHECK(clEnqueueUnmapMemObject(queue, img, mapped, 0, nullptr, nullptr) ==
          CL_SUCCESS);
    // Level 2 to a buffer, and back into level 0 of a second image; then
    // level 0 of that image into the last level's... and level to level
    // within one image.
    std::array<size_t, 3> e2 = levelExtent(s, 2);
    size_t count2 = e2[0] * e2[1] * e2[2];
    cl_mem staging = buffer(count2 * 4);
    CHECK(clEnqueueCopyImageToBuffer(queue, img, staging, origin(s, 2).data(),
                                     e2.data(), 0, 0, nullptr,
                                     nullptr) == CL_SUCCESS);
    std::vector<uint32_t> staged = read<uint32_t>(staging, count2);
    CHECK(staged == readLevel(img, s, 2));
    Shape small = s;
    small.width = e2[0];
    if (s.type != CL_MEM_OBJECT_IMAGE1D &&
        s.type != CL_MEM_OBJECT_IMAGE1D_ARRAY)
      small.height = e2[1];
    if (s.type == CL_MEM_OBJECT_IMAGE3D)
      small.depth = e2[2];
    cl_mem other = image(small, 2, kTagFormat);
    CHECK(clEnqueueCopyBufferToImage(queue, staging, other, 0,
                                     origin(small, 0).data(), e2.data(), 0,
                                     nullptr, nullptr) == CL_SUCCESS);
    CHECK(readLevel(other, small, 0) == staged);
    // Level 0 of the small image into level 2 of the first, shifted by
    // nothing, after clearing level 2: the tags come back.
    cl_uint4 zero = {{0, 0, 0, 0}};
    CHECK(clEnqueueFillImage(queue, img, &zero, origin(s, 2).data(), e2.data(),
                             0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(clEnqueueCopyImage(queue, other, img, origin(small, 0).data(),
                             origin(s, 2).data(), e2.data(), 0, nullptr,
                             nullptr) == CL_SUCCESS);
    CHECK(readLevel(img, s, 2) == staged);
    // Within one image, different levels never overlap: the last level's
    // single texel onto level 0's first.
    std::array<size_t, 3> last = levelExtent(s, levels - 1);
    std::array<size_t, 3> unit = {1, 1, 1};
    CHECK(last[0] == 1);
    CHECK(clEnqueueCopyImage(queue, img, img, origin(s, levels - 1).data(),
                             origin(s, 0).data(), unit.data(), 0, nullptr,
                             nullptr) == CL_SUCCESS);
    CHECK(readLevel(img, s, 0)[0] == texelTag(levels - 1, 0, 0, 0));
    // The same level onto itself overlaps.
    CHECK(clEnqueueCopyImage(queue, img, img, origin(s, 1).data(),
                             origin(s, 1).data(), unit.data(), 0, nullptr,
                             nullptr) == CL_MEM_COPY_OVERLAP);
    for (cl_mem m : {img, other, staging})
      clReleaseMemObject(m);
  }
}

namespace {

// Clang declares the mipmap builtins for OpenCL C 2.0 and later.
const char *kStd = "-cl-std=CL3.0";

// Reads at explicit levels of detail and from gradients, integer and float;
// each work-item reads at its own (u, v, w, lod) or gradients.
const char *kReadSource = R"CLC(
kernel void lod_2d(read_only image2d_t img, sampler_t s, global const float4 *q,
                   global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(img, s, q[i].xy, q[i].w);
}
kernel void grad_2d(read_only image2d_t img, sampler_t s,
                    global const float4 *q, global const float4 *g,
                    global float4 *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(img, s, q[i].xy, g[i].xy, g[i].zw);
}
kernel void lod_3d_uint(read_only image3d_t img, sampler_t s,
                        global const float4 *q, global uint *out) {
  size_t i = get_global_id(0);
  out[i] = read_imageui(img, s, (float4)(q[i].xyz, 0.0f), q[i].w).x;
}
kernel void grad_3d_uint(read_only image3d_t img, sampler_t s,
                         global const float4 *q, global const float4 *g,
                         global uint *out) {
  size_t i = get_global_id(0);
  out[i] = read_imageui(img, s, (float4)(q[i].xyz, 0.0f),
                        (float4)(g[i].x, 0.0f, 0.0f, 0.0f),
                        (float4)(0.0f, 0.0f, g[i].y, 0.0f)).x;
}
kernel void lod_1d_array_uint(read_only image1d_array_t img, sampler_t s,
                              global const float4 *q, global uint *out) {
  size_t i = get_global_id(0);
  out[i] = read_imageui(img, s, q[i].xy, q[i].w).x;
}
kernel void lod_2d_array_int(read_only image2d_array_t img, sampler_t s,
                             global const float4 *q, global int *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagei(img, s, (float4)(q[i].xyz, 0.0f), q[i].w).x;
}
kernel void lod_1d_uint(read_only image1d_t img, sampler_t s,
                        global const float4 *q, global uint *out) {
  size_t i = get_global_id(0);
  out[i] = read_imageui(img, s, q[i].x, q[i].w).x;
}
kernel void levels(read_only image2d_t a, write_only image3d_t b,
                   read_write image1d_array_t c, read_only image2d_t plain,
                   global int *out) {
  out[0] = get_image_num_mip_levels(a);
  out[1] = get_image_num_mip_levels(b);
  out[2] = get_image_num_mip_levels(c);
  out[3] = get_image_num_mip_levels(plain);
  out[4] = get_image_width(a);
}
)CLC";

// The level a clamped level of detail picks with the nearest mip filter.
unsigned nearestLevel(float lambda, unsigned last) {
  if (!(lambda > 0.0f))
    return 0;
  int level = int(std::ceil(lambda + 0.5f)) - 1;
  return std::min<unsigned>(unsigned(std::max(level, 0)), last);
}

// Nearest texel index of normalized coordinate u in a level `size` wide,
// clamped to the edge.
size_t nearestIndex(float u, size_t size) {
  long i = long(std::floor(u * float(size)));
  return size_t(std::clamp<long>(i, 0, long(size) - 1));
}

} // namespace

TEST_CASE_METHOD(MipmapFixture,
                 "Mipmapped images: float reads at a level of detail, nearest "
                 "and linear between levels, with the sampler's range",
                 "[mipmaps]") {
  const Shape s = {CL_MEM_OBJECT_IMAGE2D, 16, 8, 1, 1};
  const cl_uint levels = 5; // 16x8 .. 1x1
  cl_mem img = image(s, levels, kFloatFormat, CL_MEM_READ_ONLY);
  // Texel (x, y) of level l holds (l, x, y, 1).
  for (unsigned level = 0; level < levels; ++level) {
    std::array<size_t, 3> e = levelExtent(s, level);
    std::vector<Float4> texels;
    for (size_t y = 0; y < e[1]; ++y)
      for (size_t x = 0; x < e[0]; ++x)
        texels.push_back({float(level), float(x), float(y), 1.0f});
    REQUIRE(clEnqueueWriteImage(queue, img, CL_TRUE, origin(s, level).data(),
                                e.data(), 0, 0, texels.data(), 0, nullptr,
                                nullptr) == CL_SUCCESS);
  }
  // Points (u, v) and levels of detail, among them integral ones, halves,
  // negative, NaN and past the last level.
  std::vector<Float4> queries;
  const float lods[] = {0.0f, 1.0f, 1.25f, 1.5f, 1.75f, 2.0f,
                        3.0f, 3.6f, 4.0f,  9.0f, -2.0f, NAN};
  for (float lod : lods)
    for (float u : {0.03f, 0.41f, 0.77f, 0.97f})
      for (float v : {0.1f, 0.6f})
        queries.push_back({u, v, 0.0f, lod});
  cl_mem q = buffer(queries.size() * sizeof(Float4), queries.data());
  cl_mem out = buffer(queries.size() * sizeof(Float4));
  cl_kernel k = kernel(kReadSource, "lod_2d", kStd);
  // What nearest filtering within a level reads at (u, v).
  auto at = [&](unsigned level, float u, float v) {
    std::array<size_t, 3> e = levelExtent(s, level);
    return Float4{float(level), float(nearestIndex(u, e[0])),
                  float(nearestIndex(v, e[1])), 1.0f};
  };
  struct Case {
    const char *name;
    cl_filter_mode mip_filter;
    float lod_min, lod_max;
  };
  const Case cases[] = {
      {"nearest mip filter", CL_FILTER_NEAREST, 0.0f, CL_MAXFLOAT},
      {"linear mip filter", CL_FILTER_LINEAR, 0.0f, CL_MAXFLOAT},
      {"nearest, lod in [1.5, 2.5]", CL_FILTER_NEAREST, 1.5f, 2.5f},
      {"linear, lod in [1.5, 2.5]", CL_FILTER_LINEAR, 1.5f, 2.5f},
  };
  for (const Case &c : cases) {
    INFO(c.name);
    bool ranged = c.lod_min != 0.0f;
    cl_sampler smp =
        sampler(CL_FILTER_NEAREST, c.mip_filter, ranged ? &c.lod_min : nullptr,
                ranged ? &c.lod_max : nullptr);
    REQUIRE(clSetKernelArg(k, 0, sizeof img, &img) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 1, sizeof smp, &smp) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 2, sizeof q, &q) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(k, 3, sizeof out, &out) == CL_SUCCESS);
    run1(k, queries.size());
    std::vector<Float4> got = read<Float4>(out, queries.size());
    for (size_t i = 0; i < queries.size(); ++i) {
      auto [u, v, unused, lod] = queries[i];
      float lambda = std::isnan(lod) ? c.lod_min : lod;
      lambda = std::min(std::max(lambda, c.lod_min),
                        std::min(c.lod_max, float(levels - 1)));
      lambda = std::max(lambda, 0.0f);
      Float4 want;
      if (c.mip_filter == CL_FILTER_NEAREST) {
        want = at(nearestLevel(lambda, levels - 1), u, v);
      } else {
        unsigned lower = unsigned(lambda);
        float weight = lambda - float(lower);
        Float4 a = at(lower, u, v);
        Float4 b = at(std::min(lower + 1, levels - 1), u, v);
        for (int ch = 0; ch < 4; ++ch)
          want[ch] = a[ch] + (b[ch] - a[ch]) * weight;
      }
      INFO("u " << u << " v " << v << " lod " << lod << ": got " << got[i][0]
                << " " << got[i][1] << " " << got[i][2] << ", want " << want[0]
                << " " << want[1] << " " << want[2]);
      for (int ch = 0; ch < 4; ++ch)
        CHECK(std::fabs(got[i][ch] - want[ch]) <= 1e-5f);
    }
    clReleaseSampler(smp);
  }
  clReleaseKernel(k);
  // Gradients: the larger derivative, in texels of level 0, is 2^lod.
  std::vector<Float4> points, gradients;
  std::vector<float> lambdas;
  for (float texels : {0.5f, 1.0f, 2.0f, 4.0f, 8.0f, 16.0f, 64.0f}) {
    for (int axis = 0; axis < 2; ++axis) {
      float size = axis == 0 ? 16.0f : 8.0f;
      Float4 g = {0, 0, 0, 0};
      g[axis] = texels / size;          // d(u,v)/dx along one axis
      g[2 + (1 - axis)] = 0.25f / size; // a smaller d(u,v)/dy
      points.push_back({0.3f, 0.7f, 0, 0});
      gradients.push_back(g);
      lambdas.push_back(std::log2(texels));
    }
  }
  cl_mem pq = buffer(points.size() * sizeof(Float4), points.data());
  cl_mem gq = buffer(gradients.size() * sizeof(Float4), gradients.data());
  cl_mem gout = buffer(points.size() * sizeof(Float4));
  cl_kernel gk = kernel(kReadSource, "grad_2d", kStd);
  cl_sampler smp = sampler(CL_FILTER_NEAREST, CL_FILTER_NEAREST);
  for (auto [index, arg] : {std::pair<int, const void *>{0, &img},
                            {1, &smp},
                            {2, &pq},
                            {3, &gq},
                            {4, &gout}})
    REQUIRE(clSetKernelArg(gk, index, sizeof(void *), arg) == CL_SUCCESS);
  run1(gk, points.size());
  std::vector<Float4> got = read<Float4>(gout, points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    float lambda = std::min(std::max(lambdas[i], 0.0f), float(levels - 1));
    Float4 want = at(nearestLevel(lambda, levels - 1), 0.3f, 0.7f);
    INFO("gradient case " << i << ": lod " << lambdas[i] << ", got level "
                          << got[i][0]);
    for (int ch = 0; ch < 4; ++ch)
      CHECK(got[i][ch] == want[ch]);
  }
  clReleaseSampler(smp);
  clReleaseKernel(gk);
  for (cl_mem m : {img, q, out, pq, gq, gout})
    clReleaseMemObject(m);
}

TEST_CASE_METHOD(MipmapFixture,
                 "Mipmapped images: integer reads at a level of detail of "
                 "1-D, 1-D array, 2-D array and 3-D images, and the level "
                 "count query",
                 "[mipmaps]") {
  // Nearest level, nearest texel; the layer of an array is the same at
  // every level.
  struct Case {
    Shape shape;
    const char *kernel;
  };
  const Case cases[] = {
      {{CL_MEM_OBJECT_IMAGE1D, 13, 1, 1, 1}, "lod_1d_uint"},
      {{CL_MEM_OBJECT_IMAGE1D_ARRAY, 13, 1, 1, 3}, "lod_1d_array_uint"},
      {{CL_MEM_OBJECT_IMAGE2D_ARRAY, 9, 12, 1, 2}, "lod_2d_array_int"},
      {{CL_MEM_OBJECT_IMAGE3D, 7, 5, 10, 1}, "lod_3d_uint"},
  };
  for (const Case &c : cases) {
    const Shape &s = c.shape;
    INFO(typeName(s.type) << " image");
    const cl_uint levels = fullLevels(s);
    cl_mem img = image(s, levels, kTagFormat, CL_MEM_READ_ONLY);
    writeTags(img, s, levels);
    std::vector<Float4> queries;
    for (float lod = -1.0f; lod <= float(levels) + 1; lod += 0.5f)
      for (float u : {0.05f, 0.5f, 0.95f})
        for (float layer_or_v : {0.2f, 0.9f}) {
          float layer = s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 2.0f : 1.0f;
          queries.push_back(
              {u, s.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? layer : layer_or_v,
               s.type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? layer : 0.35f, lod});
        }
    cl_mem q = buffer(queries.size() * sizeof(Float4), queries.data());
    cl_mem out = buffer(queries.size() * 4);
    cl_kernel k = kernel(kReadSource, c.kernel, kStd);
    cl_sampler smp = sampler(CL_FILTER_NEAREST, CL_FILTER_NEAREST);
    for (auto [index, arg] :
         {std::pair<int, const void *>{0, &img}, {1, &smp}, {2, &q}, {3, &out}})
      REQUIRE(clSetKernelArg(k, index, sizeof(void *), arg) == CL_SUCCESS);
    run1(k, queries.size());
    std::vector<uint32_t> got = read<uint32_t>(out, queries.size());
    for (size_t i = 0; i < queries.size(); ++i) {
      auto [u, v, w, lod] = queries[i];
      float lambda = std::min(std::max(lod, 0.0f), float(levels - 1));
      unsigned level = nearestLevel(lambda, levels - 1);
      std::array<size_t, 3> e = levelExtent(s, level);
      size_t x = nearestIndex(u, e[0]), y = 0, z = 0;
      switch (s.type) {
      case CL_MEM_OBJECT_IMAGE1D_ARRAY:
        y = size_t(v); // the layer
        break;
      case CL_MEM_OBJECT_IMAGE2D_ARRAY:
        y = nearestIndex(v, e[1]);
        z = size_t(w);
        break;
      case CL_MEM_OBJECT_IMAGE3D:
        y = nearestIndex(v, e[1]);
        z = nearestIndex(w, e[2]);
        break;
      default:
        break;
      }
      INFO("u " << u << " v " << v << " w " << w << " lod " << lod << ": got 0x"
                << std::hex << got[i] << ", want 0x"
                << texelTag(level, x, y, z));
      CHECK(got[i] == texelTag(level, x, y, z));
    }
    if (s.type == CL_MEM_OBJECT_IMAGE3D) {
      // Gradients along x and z: the larger, in level-0 texels, decides.
      std::vector<Float4> g = {{1.0f / 7, 8.0f / 10, 0, 0},
                               {4.0f / 7, 1.0f / 10, 0, 0},
                               {0.5f / 7, 0.5f / 10, 0, 0}};
      const unsigned want_level[] = {3, 2, 0};
      cl_mem gq = buffer(g.size() * sizeof(Float4), g.data());
      cl_kernel gk = kernel(kReadSource, "grad_3d_uint", kStd);
      for (auto [index, arg] : {std::pair<int, const void *>{0, &img},
                                {1, &smp},
                                {2, &q},
                                {3, &gq},
                                {4, &out}})
        REQUIRE(clSetKernelArg(gk, index, sizeof(void *), arg) == CL_SUCCESS);
      run1(gk, g.size());
      std::vector<uint32_t> got_g = read<uint32_t>(out, g.size());
      for (size_t i = 0; i < g.size(); ++i) {
        auto [u, v, w, lod] = queries[i];
        std::array<size_t, 3> e = levelExtent(s, want_level[i]);
        CHECK(got_g[i] == texelTag(want_level[i], nearestIndex(u, e[0]),
                                   nearestIndex(v, e[1]),
                                   nearestIndex(w, e[2])));
      }
      clReleaseKernel(gk);
      clReleaseMemObject(gq);
    }
    clReleaseSampler(smp);
    clReleaseKernel(k);
    clReleaseMemObject(q);
    clReleaseMemObject(out);
    clReleaseMemObject(img);
  }
  // get_image_num_mip_levels: the levels, 1 for an image without; the
  // width is level 0's.
  cl_mem a = image({CL_MEM_OBJECT_IMAGE2D, 16, 8, 1, 1}, 3, kTagFormat,
                   CL_MEM_READ_ONLY);
  cl_mem b = image({CL_MEM_OBJECT_IMAGE3D, 4, 4, 32, 1}, 6, kTagFormat,
                   CL_MEM_WRITE_ONLY);
  cl_mem c = image({CL_MEM_OBJECT_IMAGE1D_ARRAY, 9, 1, 1, 2}, 4, kTagFormat);
  cl_mem plain = image({CL_MEM_OBJECT_IMAGE2D, 16, 8, 1, 1}, 0, kTagFormat,
                       CL_MEM_READ_ONLY);
  cl_mem out = buffer(5 * 4);
  cl_kernel k = kernel(kReadSource, "levels", kStd);
  for (auto [index, arg] : {std::pair<int, const void *>{0, &a},
                            {1, &b},
                            {2, &c},
                            {3, &plain},
                            {4, &out}})
    REQUIRE(clSetKernelArg(k, index, sizeof(void *), arg) == CL_SUCCESS);
  run1(k, 1);
  CHECK(readInts(out, 5) == std::vector<cl_int>{3, 6, 4, 1, 16});
  clReleaseKernel(k);
  for (cl_mem m : {a, b, c, plain, out})
    clReleaseMemObject(m);
}

TEST_CASE_METHOD(MipmapFixture,
                 "Mipmapped images: kernels write each level "
                 "(cl_khr_mipmap_image_writes)",
                 "[mipmaps]") {
  const char *source = R"CLC(
kernel void write_2d(write_only image2d_t img, int lod) {
  int2 at = (int2)(get_global_id(0), get_global_id(1));
  uint tag = (uint)lod << 24 | (uint)at.y << 8 | (uint)at.x;
  write_imageui(img, at, lod, (uint4)(tag, 0, 0, 0));
}
kernel void write_3d(write_only image3d_t img, int lod) {
  int4 at = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  uint tag = (uint)lod << 24 | (uint)at.z << 16 | (uint)at.y << 8 | (uint)at.x;
  write_imageui(img, at, lod, (uint4)(tag, 0, 0, 0));
}
kernel void write_1d_array_f(write_only image1d_array_t img, int lod) {
  int2 at = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(img, at, lod, (float4)(lod, at.x, at.y, 1.0f));
}
)CLC";
  struct Case {
    Shape shape;
    const char *kernel;
  };
  for (const Case &c :
       {Case{{CL_MEM_OBJECT_IMAGE2D, 13, 6, 1, 1}, "write_2d"},
        Case{{CL_MEM_OBJECT_IMAGE3D, 7, 5, 10, 1}, "write_3d"}}) {
    const Shape &s = c.shape;
    INFO(typeName(s.type) << " image");
    const cl_uint levels = fullLevels(s);
    cl_mem img = image(s, levels, kTagFormat, CL_MEM_WRITE_ONLY);
    cl_kernel k = kernel(source, c.kernel, kStd);
    REQUIRE(clSetKernelArg(k, 0, sizeof img, &img) == CL_SUCCESS);
    // Every level, and one past the last (dropped).
    for (cl_int lod = 0; lod <= cl_int(levels); ++lod) {
      std::array<size_t, 3> e =
          levelExtent(s, lod < cl_int(levels) ? unsigned(lod) : 0);
      REQUIRE(clSetKernelArg(k, 1, sizeof lod, &lod) == CL_SUCCESS);
      cl_uint dims = s.type == CL_MEM_OBJECT_IMAGE3D ? 3 : 2;
      REQUIRE(runAndWait(k, dims, e.data(), nullptr) == CL_SUCCESS);
    }
    checkTags(img, s, levels);
    clReleaseKernel(k);
    clReleaseMemObject(img);
  }
  // Float writes to a level of a 1-D array: each layer's texels.
  const Shape s = {CL_MEM_OBJECT_IMAGE1D_ARRAY, 11, 1, 1, 3};
  cl_mem img = image(s, 4, kFloatFormat, CL_MEM_WRITE_ONLY);
  cl_kernel k = kernel(source, "write_1d_array_f", kStd);
  cl_int lod = 2;
  REQUIRE(clSetKernelArg(k, 0, sizeof img, &img) == CL_SUCCESS);
  REQUIRE(clSetKernelArg(k, 1, sizeof lod, &lod) == CL_SUCCESS);
  std::array<size_t, 3> e = levelExtent(s, 2);
  REQUIRE(runAndWait(k, 2, e.data(), nullptr) == CL_SUCCESS);
  std::vector<Float4> got(e[0] * e[1]);
  REQUIRE(clEnqueueReadImage(queue, img, CL_TRUE, origin(s, 2).data(), e.data(),
                             0, 0, got.data(), 0, nullptr,
                             nullptr) == CL_SUCCESS);
  for (size_t layer = 0; layer < e[1]; ++layer)
    for (size_t x = 0; x < e[0]; ++x)
      CHECK(got[layer * e[0] + x] ==
            Float4{2.0f, float(x), float(layer), 1.0f});
  clReleaseKernel(k);
  clReleaseMemObject(img);
}

TEST_CASE_METHOD(MipmapFixture,
                 "Samplers: the mip filter and level-of-detail range "
                 "properties, their defaults and errors",
                 "[mipmaps]") {
  cl_int err;
  cl_sampler_properties plain[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_TRUE, 0};
  cl_sampler smp = clCreateSamplerWithProperties(context, plain, &err);
  REQUIRE(err == CL_SUCCESS);
  cl_filter_mode mode = 0;
  cl_float lod = -1.0f;
  CHECK(clGetSamplerInfo(smp, CL_SAMPLER_MIP_FILTER_MODE_KHR, sizeof mode,
                         &mode, nullptr) == CL_SUCCESS);
  CHECK(mode == CL_FILTER_NEAREST);
  CHECK(clGetSamplerInfo(smp, CL_SAMPLER_LOD_MIN_KHR, sizeof lod, &lod,
                         nullptr) == CL_SUCCESS);
  CHECK(lod == 0.0f);
  CHECK(clGetSamplerInfo(smp, CL_SAMPLER_LOD_MAX_KHR, sizeof lod, &lod,
                         nullptr) == CL_SUCCESS);
  CHECK(lod == CL_MAXFLOAT);
  clReleaseSampler(smp);
  float lo = 0.5f, hi = 3.25f;
  smp = sampler(CL_FILTER_LINEAR, CL_FILTER_LINEAR, &lo, &hi);
  CHECK(clGetSamplerInfo(smp, CL_SAMPLER_MIP_FILTER_MODE_KHR, sizeof mode,
                         &mode, nullptr) == CL_SUCCESS);
  CHECK(mode == CL_FILTER_LINEAR);
  CHECK(clGetSamplerInfo(smp, CL_SAMPLER_LOD_MIN_KHR, sizeof lod, &lod,
                         nullptr) == CL_SUCCESS);
  CHECK(lod == 0.5f);
  CHECK(clGetSamplerInfo(smp, CL_SAMPLER_LOD_MAX_KHR, sizeof lod, &lod,
                         nullptr) == CL_SUCCESS);
  CHECK(lod == 3.25f);
  clReleaseSampler(smp);
  // A mip filter that is no filter, NaN, a range upside down, a property
  // twice.
  auto fails = [&](std::vector<cl_sampler_properties> props) {
    props.push_back(0);
    cl_int e = CL_SUCCESS;
    cl_sampler made = clCreateSamplerWithProperties(context, props.data(), &e);
    CHECK(made == nullptr);
    CHECK(e == CL_INVALID_VALUE);
  };
  auto bits = [](float value) {
    cl_sampler_properties out = 0;
    std::memcpy(&out, &value, sizeof value);
    return out;
  };
  fails({CL_SAMPLER_MIP_FILTER_MODE_KHR, 0x1234});
  fails({CL_SAMPLER_LOD_MIN_KHR, bits(NAN)});
  fails(
      {CL_SAMPLER_LOD_MIN_KHR, bits(2.0f), CL_SAMPLER_LOD_MAX_KHR, bits(1.0f)});
  fails(
      {CL_SAMPLER_LOD_MAX_KHR, bits(2.0f), CL_SAMPLER_LOD_MAX_KHR, bits(3.0f)});
}

// Depth images with levels: the extension lists depth images among its
// restrictions without an error code, and the CTS's image read/write suite
// creates them; Weft accepts them, and they work like colour ones.
TEST_CASE_METHOD(MipmapFixture,
                 "Mipmapped depth images: levels written by kernels and the "
                 "host, read at a level of detail",
                 "[mipmaps]") {
  const char *source = R"CLC(
kernel void write_depth(write_only image2d_depth_t img, int lod) {
  int2 at = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(img, at, lod, (float)(lod * 100 + at.y * 8 + at.x));
}
kernel void read_depth(read_only image2d_depth_t img, sampler_t s,
                       global const float4 *q, global float *out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(img, s, q[i].xy, q[i].w);
}
)CLC";
  const Shape s = {CL_MEM_OBJECT_IMAGE2D, 8, 4, 1, 1};
  const cl_image_format depth = {CL_DEPTH, CL_FLOAT};
  cl_mem img = image(s, 3, depth);
  cl_kernel write = kernel(source, "write_depth", kStd);
  REQUIRE(clSetKernelArg(write, 0, sizeof img, &img) == CL_SUCCESS);
  for (cl_int lod = 0; lod < 3; ++lod) {
    REQUIRE(clSetKernelArg(write, 1, sizeof lod, &lod) == CL_SUCCESS);
    std::array<size_t, 3> e = levelExtent(s, lod);
    REQUIRE(runAndWait(write, 2, e.data(), nullptr) == CL_SUCCESS);
    std::vector<float> got(e[0] * e[1]);
    REQUIRE(clEnqueueReadImage(queue, img, CL_TRUE, origin(s, lod).data(),
                               e.data(), 0, 0, got.data(), 0, nullptr,
                               nullptr) == CL_SUCCESS);
    for (size_t y = 0; y < e[1]; ++y)
      for (size_t x = 0; x < e[0]; ++x)
        CHECK(got[y * e[0] + x] == float(lod * 100 + y * 8 + x));
  }
  std::vector<Float4> queries = {{0.9f, 0.9f, 0, 0.0f},
                                 {0.9f, 0.9f, 0, 1.0f},
                                 {0.9f, 0.9f, 0, 2.0f},
                                 {0.9f, 0.9f, 0, 7.0f}};
  cl_mem q = buffer(queries.size() * sizeof(Float4), queries.data());
  cl_mem out = buffer(queries.size() * sizeof(float));
  cl_kernel reader = kernel(source, "read_depth", kStd);
  cl_sampler smp = sampler(CL_FILTER_NEAREST, CL_FILTER_NEAREST);
  for (auto [index, arg] :
       {std::pair<int, const void *>{0, &img}, {1, &smp}, {2, &q}, {3, &out}})
    REQUIRE(clSetKernelArg(reader, index, sizeof(void *), arg) == CL_SUCCESS);
  run1(reader, queries.size());
  // (0.9, 0.9): texel (7, 3) of 8x4, (3, 1) of 4x2, (1, 0) of 2x1; a lod
  // past the last reads the last.
  CHECK(read<float>(out, 4) == std::vector<float>{31, 111, 201, 201});
  clReleaseSampler(smp);
  for (cl_kernel k : {write, reader})
    clReleaseKernel(k);
  for (cl_mem m : {img, q, out})
    clReleaseMemObject(m);
}
