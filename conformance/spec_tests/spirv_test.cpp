// SPIR-V programs built by Clang and translated (cl_khr_il_program, OpenCL
// 3.0 API spec 5.8.1): the kernels of spirv/programs.cl, compiled by
// Debian's clang-15 to SPIR-V through llvm-spirv-15 at -O0 and at -O2
// (spirv/make_modules.sh), are built with clCreateProgramWithIL and run
// beside the same source built with clCreateProgramWithSource. Every build
// must match the host's reference: what differs between the two paths
// (builtin names, conversions, generic pointers, program-scope variables,
// collectives as SPIR-V group instructions, literal samplers, image and pipe
// instructions) must not change a result.
#include "api_fixture.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <numeric>
#include <random>

namespace {

std::vector<unsigned char> readFile(const std::string &name) {
  std::ifstream file(std::string(WEFT_SPEC_SPIRV_DIR) + "/" + name,
                     std::ios::binary);
  REQUIRE(file);
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(file), {});
}

struct SpirvProgramFixture : WeftFixture {
  cl_program program = nullptr;

  // Builds programs.cl from source, or one of its SPIR-V modules.
  void buildVariant(const std::string &variant) {
    cl_int err;
    if (variant == "source") {
      std::vector<unsigned char> text = readFile("programs.cl");
      text.push_back('\0');
      const char *source = reinterpret_cast<const char *>(text.data());
      program = clCreateProgramWithSource(context, 1, &source, nullptr, &err);
    } else {
      std::vector<unsigned char> il = readFile(variant);
      program = clCreateProgramWithIL(context, il.data(), il.size(), &err);
    }
    REQUIRE(err == CL_SUCCESS);
    cl_int status =
        clBuildProgram(program, 1, &device, "-cl-std=CL2.0", nullptr, nullptr);
    INFO(buildLog(program));
    REQUIRE(status == CL_SUCCESS);
  }
  ~SpirvProgramFixture() { clReleaseProgram(program); }

  // An image of `desc`'s shape: filled from `texels` when given.
  cl_mem image(const cl_image_format &format, const cl_image_desc &desc,
               cl_mem_flags flags, void *texels = nullptr) {
    cl_int err;
    cl_mem m =
        clCreateImage(context, flags | (texels ? CL_MEM_COPY_HOST_PTR : 0),
                      &format, &desc, texels, &err);
    REQUIRE(err == CL_SUCCESS);
    return m;
  }

  template <typename T> cl_mem input(const std::vector<T> &data) {
    return buffer(data.size() * sizeof(T), const_cast<T *>(data.data()));
  }
  template <typename T> std::vector<T> read(cl_mem m, size_t count) {
    std::vector<T> out(count);
    REQUIRE(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, count * sizeof(T),
                                out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    return out;
  }

  // Runs kernel `name` with `args` (each a size and a pointer; a null
  // pointer is local memory of that size).
  void run(const char *name, std::vector<std::pair<size_t, const void *>> args,
           cl_uint dims, const size_t *global, const size_t *local) {
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    REQUIRE(err == CL_SUCCESS);
    for (cl_uint a = 0; a < args.size(); ++a)
      REQUIRE(clSetKernelArg(k, a, args[a].first, args[a].second) ==
              CL_SUCCESS);
    REQUIRE(runAndWait(k, dims, global, local) == CL_SUCCESS);
    clReleaseKernel(k);
  }
};

bool nearly(float got, double want, double relative) {
  return std::fabs(got - want) <= relative * std::max(1.0, std::fabs(want));
}

} // namespace

TEST_CASE_METHOD(SpirvProgramFixture,
                 "SPIR-V made by Clang runs like the source it came from",
                 "[spirv]") {
  size_t il_size = 0;
  REQUIRE(clGetDeviceInfo(device, CL_DEVICE_IL_VERSION, 0, nullptr, &il_size) ==
          CL_SUCCESS);
  // The translator is a dependency (scripts/install-deps.sh): without it
  // the device reports no IL and this test has nothing to check.
  REQUIRE(il_size > 1);

  std::string variant = GENERATE(as<std::string>{}, "source", "programs_O0.spv",
                                 "programs_O2.spv");
  INFO("built from " << variant);
  buildVariant(variant);
  std::mt19937 rng(7);
  constexpr size_t kN = 256;

  { // one build runs every part: sections would rebuild for each
    INFO("conversions");
    std::vector<float> in(kN);
    std::uniform_real_distribution<float> wide(-3e9f, 3e9f), narrow(-300, 300);
    for (size_t i = 0; i < kN; ++i)
      in[i] = i % 2 ? wide(rng) : narrow(rng) + (i % 4 == 0 ? 0.5f : 0.f);
    cl_mem m_in = input(in), rounded = buffer(kN * 4), saturated = buffer(kN),
           from_long = buffer(kN * 4);
    run("conversions",
        {{sizeof m_in, &m_in},
         {sizeof rounded, &rounded},
         {sizeof saturated, &saturated},
         {sizeof from_long, &from_long}},
        1, &kN, nullptr);
    auto r = read<cl_int>(rounded, kN);
    auto s = read<cl_uchar>(saturated, kN);
    auto f = read<cl_float>(from_long, kN);
    for (size_t i = 0; i < kN; ++i) {
      INFO("in " << in[i]);
      double even = std::nearbyint(static_cast<double>(in[i]));
      CHECK(r[i] ==
            static_cast<cl_int>(std::clamp(even, -2147483648.0, 2147483647.0)));
      double truncated = std::trunc(static_cast<double>(in[i]));
      long t =
          static_cast<long>(std::clamp(truncated, -2147483648.0, 2147483647.0));
      CHECK(s[i] == std::clamp(t, 0L, 255L));
      // (long)x * 3000000007 wraps like the kernel's 64-bit product.
      int64_t product = static_cast<int64_t>(
          static_cast<uint64_t>(static_cast<int64_t>(in[i])) * 3000000007ULL);
      CHECK(f[i] == static_cast<float>(product));
    }
    for (cl_mem m : {m_in, rounded, saturated, from_long})
      clReleaseMemObject(m);
  }

  {
    INFO("integer builtins");
    std::vector<cl_uint> a(kN), b(kN);
    for (size_t i = 0; i < kN; ++i) {
      a[i] = rng();
      b[i] = i % 3 ? rng() : rng() % 40;
    }
    cl_mem ma = input(a), mb = input(b), out = buffer(8 * kN * 4);
    run("integers", {{sizeof ma, &ma}, {sizeof mb, &mb}, {sizeof out, &out}}, 1,
        &kN, nullptr);
    auto got = read<cl_uint>(out, 8 * kN);
    for (size_t i = 0; i < kN; ++i) {
      uint32_t x = a[i], y = b[i], s = y % 32;
      INFO("x " << x << " y " << y);
      CHECK(got[8 * i + 0] == (s ? (x << s) | (x >> (32 - s)) : x));
      CHECK(got[8 * i + 1] == static_cast<uint32_t>(__builtin_popcount(x)));
      CHECK(got[8 * i + 2] ==
            (x ? static_cast<uint32_t>(__builtin_clz(x)) : 32));
      CHECK(got[8 * i + 3] ==
            static_cast<uint32_t>((static_cast<uint64_t>(x) * y) >> 32));
      CHECK(got[8 * i + 4] == static_cast<uint32_t>(std::min<uint64_t>(
                                  uint64_t(x) + y, 0xffffffffu)));
      int64_t diff = int64_t(int32_t(x)) - int64_t(int32_t(y));
      CHECK(got[8 * i + 5] == static_cast<uint32_t>(diff < 0 ? -diff : diff));
      CHECK(got[8 * i + 6] == (x & 0xffff) * (y & 0xffff) + 7u);
      CHECK(got[8 * i + 7] == (((x & 0xffff) << 16) | (y & 0xffff)) >> 5);
    }
    for (cl_mem m : {ma, mb, out})
      clReleaseMemObject(m);
  }

  {
    INFO("vectors");
    std::vector<float> in(4 * kN + 4);
    std::uniform_real_distribution<float> d(-4, 4);
    for (float &x : in)
      x = d(rng);
    cl_mem m_in = input(in), out = buffer(5 * kN * 4);
    run("vectors", {{sizeof m_in, &m_in}, {sizeof out, &out}}, 1, &kN, nullptr);
    auto got = read<cl_float>(out, 5 * kN);
    for (size_t i = 0; i < kN; ++i) {
      const float *a = &in[4 * i], *b = &in[4 * i + 4];
      const float mixed[4] = {a[0], b[1], a[2], b[3]};
      bool any = false;
      for (int k = 0; k < 4; ++k) {
        bool larger = a[k] > b[k];
        any |= larger;
        CHECK(got[4 * i + k] == mixed[k] + (larger ? b[k] : a[k]));
      }
      double dot = 0;
      for (int k = 0; k < 4; ++k)
        dot += double(a[k]) * b[k];
      double length = std::sqrt(double(a[0]) * a[0] + double(a[1]) * a[1] +
                                double(a[2]) * a[2]);
      double cross_z = double(a[0]) * b[1] - double(a[1]) * b[0];
      CHECK(nearly(got[4 * kN + i], dot + length + cross_z + (any ? 1 : 0),
                   1e-5));
    }
    clReleaseMemObject(m_in);
    clReleaseMemObject(out);
  }

  {
    INFO("OpenCL.std math");
    std::vector<float> in(kN);
    std::uniform_real_distribution<float> d(-8, 8);
    for (float &x : in)
      x = d(rng);
    cl_mem m_in = input(in), out = buffer(6 * kN * 4);
    run("math", {{sizeof m_in, &m_in}, {sizeof out, &out}}, 1, &kN, nullptr);
    auto got = read<cl_float>(out, 6 * kN);
    for (size_t i = 0; i < kN; ++i) {
      double x = in[i];
      INFO("x " << x);
      CHECK(nearly(got[6 * i + 0], std::exp(x * 0.25), 1e-6));
      CHECK(nearly(got[6 * i + 1], std::log(std::fabs(x) + 1), 1e-6));
      CHECK(nearly(got[6 * i + 2], std::pow(std::fabs(x), 1.5), 4e-6));
      CHECK(nearly(got[6 * i + 3], std::sin(x) + std::cos(x), 1e-6));
      CHECK(nearly(got[6 * i + 4], std::fma(x, x, -2.0), 1e-6));
      CHECK(nearly(
          got[6 * i + 5],
          std::clamp(x, -1.0, 1.0) + std::min(x, 0.5) + (x < 0 ? 0 : 1), 1e-6));
    }
    clReleaseMemObject(m_in);
    clReleaseMemObject(out);
  }

  {
    INFO("generic pointers and a program-scope atomic");
    std::vector<cl_int> in(kN);
    std::iota(in.begin(), in.end(), -100);
    cl_mem m_in = input(in), out = buffer(kN * 4), total = buffer(4);
    const size_t local = 32;
    run("generic_pointers",
        {{sizeof m_in, &m_in}, {sizeof out, &out}, {local * 4, nullptr}}, 1,
        &kN, &local);
    size_t one = 1;
    run("read_total", {{sizeof total, &total}}, 1, &one, nullptr);
    auto got = read<cl_int>(out, kN);
    for (size_t g = 0; g < kN; ++g) {
      size_t first = g / local * local;
      int sum =
          std::accumulate(in.begin() + first, in.begin() + first + local, 0);
      CHECK(got[g] == sum * 1000 + in[g]);
    }
    CHECK(read<cl_int>(total, 1)[0] ==
          std::accumulate(in.begin(), in.end(), 0));
    for (cl_mem m : {m_in, out, total})
      clReleaseMemObject(m);
  }

  {
    INFO("a struct passed by value");
    struct Params {
      cl_float scale;
      cl_int offset;
      cl_short pair[2];
    } params = {1.5f, -7, {3, -4}};
    std::vector<cl_int> data(kN);
    std::iota(data.begin(), data.end(), 0);
    cl_mem m = input(data);
    run("by_value", {{sizeof m, &m}, {sizeof params, &params}}, 1, &kN,
        nullptr);
    auto got = read<cl_int>(m, kN);
    for (size_t i = 0; i < kN; ++i)
      CHECK(got[i] == static_cast<int>(data[i] * 1.5f) - 7 - 12);
    clReleaseMemObject(m);
  }

  {
    INFO("local memory and barriers in 2-D groups");
    const size_t global[2] = {64, 32}, local[2] = {8, 4};
    std::vector<cl_int> in(global[0] * global[1]);
    for (cl_int &x : in)
      x = static_cast<cl_int>(rng() % 1000);
    const size_t groups = (global[0] / local[0]) * (global[1] / local[1]);
    cl_mem m_in = input(in), sums = buffer(groups * 4);
    run("tile_sums",
        {{sizeof m_in, &m_in},
         {sizeof sums, &sums},
         {local[0] * local[1] * 4, nullptr}},
        2, global, local);
    auto got = read<cl_int>(sums, groups);
    for (size_t gy = 0; gy < global[1] / local[1]; ++gy)
      for (size_t gx = 0; gx < global[0] / local[0]; ++gx) {
        int want = 0;
        for (size_t y = 0; y < local[1]; ++y)
          for (size_t x = 0; x < local[0]; ++x)
            want += in[(gy * local[1] + y) * global[0] + gx * local[0] + x];
        CHECK(got[gy * (global[0] / local[0]) + gx] == want);
      }
    clReleaseMemObject(m_in);
    clReleaseMemObject(sums);
  }

  {
    INFO("work-group collectives");
    std::vector<cl_int> in(kN);
    for (cl_int &x : in)
      x = static_cast<cl_int>(rng() % 100);
    cl_mem m_in = input(in), out = buffer(4 * kN * 4);
    const size_t local = 64;
    run("collectives", {{sizeof m_in, &m_in}, {sizeof out, &out}}, 1, &kN,
        &local);
    auto got = read<cl_int>(out, 4 * kN);
    for (size_t first = 0; first < kN; first += local) {
      int sum = 0, max = INT32_MIN, before = 0;
      bool any = false;
      for (size_t l = 0; l < local; ++l)
        any |= in[first + l] > 90;
      int all =
          std::accumulate(in.begin() + first, in.begin() + first + local, 0);
      for (size_t l = 0; l < local; ++l) {
        size_t g = first + l;
        max = std::max(max, in[g]);
        CHECK(got[4 * g + 0] == all);
        CHECK(got[4 * g + 1] == max);
        CHECK(got[4 * g + 2] == before);
        CHECK(got[4 * g + 3] == in[first + 3] + (any ? 1 : 0));
        before += in[g];
        sum += in[g];
      }
      CHECK(sum == all);
    }
    clReleaseMemObject(m_in);
    clReleaseMemObject(out);
  }

  {
    INFO("images: literal and argument samplers, read-write, from a buffer");
    constexpr size_t kW = 16, kH = 8;
    cl_int err;
    std::vector<float> texels(kW * kH * 4);
    for (size_t i = 0; i < texels.size(); ++i)
      texels[i] = float(i % 97);
    const cl_image_format rgba_float = {CL_RGBA, CL_FLOAT};
    cl_image_desc desc = {};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = kW;
    desc.image_height = kH;
    cl_mem src = image(rgba_float, desc, CL_MEM_READ_ONLY, texels.data());
    cl_mem dst = image(rgba_float, desc, CL_MEM_WRITE_ONLY);
    const cl_sampler_properties linear_props[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                                  CL_FALSE,
                                                  CL_SAMPLER_ADDRESSING_MODE,
                                                  CL_ADDRESS_CLAMP_TO_EDGE,
                                                  CL_SAMPLER_FILTER_MODE,
                                                  CL_FILTER_LINEAR,
                                                  0};
    cl_sampler linear =
        clCreateSamplerWithProperties(context, linear_props, &err);
    REQUIRE(err == CL_SUCCESS);
    const size_t extent[2] = {kW, kH};
    run("shift_image",
        {{sizeof src, &src}, {sizeof dst, &dst}, {sizeof linear, &linear}}, 2,
        extent, nullptr);
    std::vector<float> shifted(texels.size());
    const size_t origin[3] = {0, 0, 0}, region[3] = {kW, kH, 1};
    REQUIRE(clEnqueueReadImage(queue, dst, CL_TRUE, origin, region, 0, 0,
                               shifted.data(), 0, nullptr,
                               nullptr) == CL_SUCCESS);
    for (size_t y = 0; y < kH; ++y)
      for (size_t x = 0; x < kW; ++x)
        for (size_t c = 0; c < 4; ++c) {
          size_t left = (y * kW + (x ? x - 1 : 0)) * 4 + c;
          size_t here = (y * kW + x) * 4 + c;
          CHECK(shifted[here] == texels[left] + texels[here]);
        }

    std::vector<cl_uchar> bytes(kW * kH * 4);
    for (size_t i = 0; i < bytes.size(); ++i)
      bytes[i] = cl_uchar(i * 7);
    const cl_image_format rgba_u8 = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_mem image =
        clCreateImage(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                      &rgba_u8, &desc, bytes.data(), &err);
    REQUIRE(err == CL_SUCCESS);
    run("invert_in_place", {{sizeof image, &image}}, 2, extent, nullptr);
    std::vector<cl_uchar> inverted(bytes.size());
    REQUIRE(clEnqueueReadImage(queue, image, CL_TRUE, origin, region, 0, 0,
                               inverted.data(), 0, nullptr,
                               nullptr) == CL_SUCCESS);
    for (size_t i = 0; i < bytes.size(); ++i)
      CHECK(inverted[i] == 255 - bytes[i]);

    std::vector<cl_int> values(kN);
    std::iota(values.begin(), values.end(), -7);
    cl_mem backing = input(values);
    const cl_image_format r_i32 = {CL_R, CL_SIGNED_INT32};
    cl_image_desc buffer_desc = {};
    buffer_desc.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
    buffer_desc.image_width = kN;
    buffer_desc.buffer = backing;
    cl_mem texels_1d = clCreateImage(context, CL_MEM_READ_ONLY, &r_i32,
                                     &buffer_desc, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_mem out = buffer(kN * 4);
    run("from_buffer_image",
        {{sizeof texels_1d, &texels_1d}, {sizeof out, &out}}, 1, &kN, nullptr);
    auto got = read<cl_int>(out, kN);
    for (size_t i = 0; i < kN; ++i)
      CHECK(got[i] == values[i] + cl_int(kN));
    for (cl_mem m : {src, dst, image, texels_1d, backing, out})
      clReleaseMemObject(m);
    clReleaseSampler(linear);
  }

  {
    INFO("pipes");
    cl_int err;
    cl_mem pipe = clCreatePipe(context, 0, sizeof(cl_int), kN, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    std::vector<cl_int> values(kN);
    std::iota(values.begin(), values.end(), 1000);
    cl_mem in = input(values), out = buffer(kN * 4);
    run("produce", {{sizeof in, &in}, {sizeof pipe, &pipe}}, 1, &kN, nullptr);
    run("consume", {{sizeof pipe, &pipe}, {sizeof out, &out}}, 1, &kN, nullptr);
    auto got = read<cl_int>(out, kN);
    std::sort(got.begin(), got.end()); // a pipe need not keep the order
    CHECK(got == values);
    for (cl_mem m : {pipe, in, out})
      clReleaseMemObject(m);
  }

  {
    INFO("64-bit atomics");
    cl_long counters[2] = {0, -1000};
    cl_long c11 = 0;
    cl_mem m_counters = buffer(sizeof counters, counters),
           m_c11 = buffer(sizeof c11, &c11);
    run("atomics64", {{sizeof m_counters, &m_counters}, {sizeof m_c11, &m_c11}},
        1, &kN, nullptr);
    auto got = read<cl_long>(m_counters, 2);
    CHECK(got[0] == cl_long(kN * (kN - 1) / 2) << 33);
    CHECK(got[1] == cl_long(kN - 1) - 100);
    CHECK(read<cl_long>(m_c11, 1)[0] == cl_long(kN) << 40);
    clReleaseMemObject(m_counters);
    clReleaseMemObject(m_c11);
  }

  {
    INFO("1-D images");
    cl_int err;
    std::vector<float> texels(kN * 4);
    for (size_t i = 0; i < texels.size(); ++i)
      texels[i] = float(i % 31) - 3;
    const cl_image_format rgba_float = {CL_RGBA, CL_FLOAT};
    cl_image_desc desc = {};
    desc.image_type = CL_MEM_OBJECT_IMAGE1D;
    desc.image_width = kN;
    cl_mem src = image(rgba_float, desc, CL_MEM_READ_ONLY, texels.data());
    cl_mem dst = image(rgba_float, desc, CL_MEM_WRITE_ONLY);
    cl_sampler nearest = clCreateSampler(context, CL_FALSE, CL_ADDRESS_NONE,
                                         CL_FILTER_NEAREST, &err);
    REQUIRE(err == CL_SUCCESS);
    run("image_1d",
        {{sizeof src, &src}, {sizeof dst, &dst}, {sizeof nearest, &nearest}}, 1,
        &kN, nullptr);
    std::vector<float> doubled(texels.size());
    const size_t origin[3] = {0, 0, 0}, region[3] = {kN, 1, 1};
    REQUIRE(clEnqueueReadImage(queue, dst, CL_TRUE, origin, region, 0, 0,
                               doubled.data(), 0, nullptr,
                               nullptr) == CL_SUCCESS);
    for (size_t i = 0; i < texels.size(); ++i)
      CHECK(doubled[i] == 2 * texels[i]);
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
    clReleaseSampler(nearest);
  }
}
