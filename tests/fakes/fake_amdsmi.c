/* A fake libamd_smi.so for tests: the AMD SMI entry points servebench's collector binds, with
 * the signatures and struct layouts of AMD SMI's public C API reference (amdsmi.h, ROCm 6.4+),
 * reporting FAKE_GPU_COUNT GPUs on one socket with the values of fake_gpu_values.h. Not AMD
 * code; no header of theirs is used. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fake_gpu_values.h"

typedef int amdsmi_status_t;
typedef void* amdsmi_socket_handle;
typedef void* amdsmi_processor_handle;

typedef struct {
  uint64_t socket_power;
  uint32_t current_socket_power;
  uint32_t average_socket_power;
  uint64_t gfx_voltage;
  uint64_t soc_voltage;
  uint64_t mem_voltage;
  uint32_t power_limit;
  uint64_t reserved[18];
} amdsmi_power_info_t;
typedef struct {
  uint32_t gfx_activity;
  uint32_t umc_activity;
  uint32_t mm_activity;
  uint32_t reserved[13];
} amdsmi_engine_usage_t;
typedef struct {
  char market_name[256];
  uint32_t vendor_id;
  char vendor_name[256];
  uint32_t subvendor_id;
  uint64_t device_id;
  uint32_t rev_id;
  char asic_serial[32];
  uint32_t oam_id;
  uint32_t num_of_compute_units;
  uint64_t target_graphics_version;
  uint32_t reserved[22];
} amdsmi_asic_info_t;

#define AMDSMI_STATUS_SUCCESS 0
#define AMDSMI_STATUS_INVAL 1
#define AMDSMI_STATUS_NOT_SUPPORTED 2
#define AMDSMI_STATUS_NOT_INIT 32
#define EXPORT __attribute__((visibility("default")))

static int g_initialized = 0;
static double g_t0 = 0;
static int g_socket = 0;
static int g_gpus[FAKE_GPU_COUNT] = {0, 1};
static const float kResolutionUj = 15.3f; /* µJ per accumulator step, as real parts report */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
static int index_of(amdsmi_processor_handle h) {
  if (!g_initialized) return -1;
  for (int i = 0; i < FAKE_GPU_COUNT; ++i)
    if (h == &g_gpus[i]) return i;
  return -1;
}

EXPORT amdsmi_status_t amdsmi_init(uint64_t flags) {
  if ((flags & (1u << 1)) == 0) return AMDSMI_STATUS_INVAL; /* AMDSMI_INIT_AMD_GPUS */
  if (!g_initialized) g_t0 = now_s();
  g_initialized = 1;
  return AMDSMI_STATUS_SUCCESS;
}
EXPORT amdsmi_status_t amdsmi_shut_down(void) {
  g_initialized = 0;
  return AMDSMI_STATUS_SUCCESS;
}
EXPORT amdsmi_status_t amdsmi_get_socket_handles(uint32_t* count, amdsmi_socket_handle* out) {
  if (!g_initialized) return AMDSMI_STATUS_NOT_INIT;
  if (count == NULL) return AMDSMI_STATUS_INVAL;
  if (out == NULL) {
    *count = 1;
    return AMDSMI_STATUS_SUCCESS;
  }
  if (*count < 1) return AMDSMI_STATUS_INVAL;
  out[0] = &g_socket;
  *count = 1;
  return AMDSMI_STATUS_SUCCESS;
}
EXPORT amdsmi_status_t amdsmi_get_processor_handles(amdsmi_socket_handle s, uint32_t* count,
                                                    amdsmi_processor_handle* out) {
  if (!g_initialized) return AMDSMI_STATUS_NOT_INIT;
  if (s != &g_socket || count == NULL) return AMDSMI_STATUS_INVAL;
  if (out == NULL) {
    *count = FAKE_GPU_COUNT;
    return AMDSMI_STATUS_SUCCESS;
  }
  if (*count < FAKE_GPU_COUNT) return AMDSMI_STATUS_INVAL;
  for (int i = 0; i < FAKE_GPU_COUNT; ++i) out[i] = &g_gpus[i];
  *count = FAKE_GPU_COUNT;
  return AMDSMI_STATUS_SUCCESS;
}
EXPORT amdsmi_status_t amdsmi_get_gpu_asic_info(amdsmi_processor_handle h,
                                                amdsmi_asic_info_t* info) {
  if (index_of(h) < 0 || info == NULL) return AMDSMI_STATUS_INVAL;
  memset(info, 0, sizeof(*info));
  snprintf(info->market_name, sizeof(info->market_name), "Fake AMD Instinct MI300X");
  info->vendor_id = 0x1002;
  return AMDSMI_STATUS_SUCCESS;
}
EXPORT amdsmi_status_t amdsmi_get_gpu_device_uuid(amdsmi_processor_handle h, unsigned int* len,
                                                  char* uuid) {
  const int i = index_of(h);
  if (i < 0 || len == NULL || uuid == NULL) return AMDSMI_STATUS_INVAL;
  const int n = snprintf(uuid, *len, "fa4e0000-0000-4000-8000-0000000a000%d", i);
  if (n < 0 || (unsigned)n >= *len) return AMDSMI_STATUS_INVAL;
  *len = (unsigned)n;
  return AMDSMI_STATUS_SUCCESS;
}
EXPORT amdsmi_status_t amdsmi_get_power_info(amdsmi_processor_handle h, amdsmi_power_info_t* p) {
  const int i = index_of(h);
  if (i < 0 || p == NULL) return AMDSMI_STATUS_INVAL;
  memset(p, 0, sizeof(*p));
  p->current_socket_power = (uint32_t)kFakePowerW[i];
  p->average_socket_power = UINT32_MAX; /* unsupported, as on MI300 */
  p->power_limit = 750;
  return AMDSMI_STATUS_SUCCESS;
}
EXPORT amdsmi_status_t amdsmi_get_energy_count(amdsmi_processor_handle h, uint64_t* acc,
                                               float* resolution, uint64_t* timestamp) {
  const int i = index_of(h);
  if (i < 0 || acc == NULL || resolution == NULL || timestamp == NULL) return AMDSMI_STATUS_INVAL;
  const double elapsed = now_s() - g_t0;
  const double uj = kFakeEnergyBaseMj * 1e3 + kFakePowerW[i] * elapsed * 1e6;
  *acc = (uint64_t)(uj / kResolutionUj);
  *resolution = kResolutionUj;
  *timestamp = (uint64_t)(elapsed * 1e9);
  return AMDSMI_STATUS_SUCCESS;
}
EXPORT amdsmi_status_t amdsmi_get_gpu_activity(amdsmi_processor_handle h,
                                               amdsmi_engine_usage_t* u) {
  const int i = index_of(h);
  if (i < 0 || u == NULL) return AMDSMI_STATUS_INVAL;
  memset(u, 0, sizeof(*u));
  u->gfx_activity = kFakeGpuUtil[i];
  u->umc_activity = kFakeMemUtil[i];
  u->mm_activity = UINT32_MAX; /* N/A on Instinct parts */
  return AMDSMI_STATUS_SUCCESS;
}
EXPORT amdsmi_status_t amdsmi_get_gpu_memory_usage(amdsmi_processor_handle h, int type,
                                                   uint64_t* used) {
  const int i = index_of(h);
  if (i < 0 || used == NULL || type != 0) return AMDSMI_STATUS_INVAL;
  *used = kFakeMemUsedBytes[i];
  return AMDSMI_STATUS_SUCCESS;
}
EXPORT amdsmi_status_t amdsmi_get_temp_metric(amdsmi_processor_handle h, int sensor, int metric,
                                              int64_t* t) {
  const int i = index_of(h);
  if (i < 0 || t == NULL || metric != 0) return AMDSMI_STATUS_INVAL;
  if (sensor != 1) return AMDSMI_STATUS_NOT_SUPPORTED; /* hotspot (junction) only */
  *t = kFakeTempC[i];
  return AMDSMI_STATUS_SUCCESS;
}

/* ROCm 6.x layout: correctable, uncorrectable, deferred, then reserved words. GPU i reports i
 * uncorrectable errors (GPU 1 has one); the collector must read the second field. */
typedef struct {
  uint64_t correctable_count;
  uint64_t uncorrectable_count;
  uint64_t deferred_count;
  uint64_t reserved[5];
} amdsmi_error_count_t;
EXPORT amdsmi_status_t amdsmi_get_gpu_total_ecc_count(amdsmi_processor_handle h,
                                                      amdsmi_error_count_t* ec) {
  const int i = index_of(h);
  if (i < 0 || ec == NULL) return AMDSMI_STATUS_INVAL;
  ec->correctable_count = 1000;
  ec->uncorrectable_count = (uint64_t)i;
  ec->deferred_count = 7;
  return AMDSMI_STATUS_SUCCESS;
}

/* amdsmi_gpu_metrics_t, ROCm 6.x (format revision 1.x): the fields up to throttle_status, then
 * the rest of the table as opaque bytes. GPU 0 reports throttling bits 0x21; GPU 1 reports
 * UINT32_MAX (not supported), which the collector must leave out. */
typedef struct {
  uint16_t structure_size;
  uint8_t format_revision;
  uint8_t content_revision;
  uint16_t temperature[6];
  uint16_t average_activity[3];
  uint16_t average_socket_power;
  uint64_t energy_accumulator;
  uint64_t system_clock_counter;
  uint16_t clocks[14];
  uint32_t throttle_status;
  uint8_t rest[1024];
} amdsmi_gpu_metrics_t;
_Static_assert(__builtin_offsetof(amdsmi_gpu_metrics_t, throttle_status) == 68,
               "throttle_status offset of amdsmi_gpu_metrics_t");
EXPORT amdsmi_status_t amdsmi_get_gpu_metrics_info(amdsmi_processor_handle h,
                                                   amdsmi_gpu_metrics_t* m) {
  const int i = index_of(h);
  if (i < 0 || m == NULL) return AMDSMI_STATUS_INVAL;
  memset(m, 0, sizeof(*m));
  m->structure_size = (uint16_t)sizeof(*m);
  m->format_revision = 1;
  m->content_revision = 5;
  m->throttle_status = i == 0 ? 0x21u : UINT32_MAX;
  return AMDSMI_STATUS_SUCCESS;
}
