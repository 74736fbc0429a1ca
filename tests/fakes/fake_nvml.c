/* A fake libnvidia-ml.so.1 for tests: the NVML entry points servebench's collector binds, with
 * the signatures of NVML's public API reference (nvml.h), reporting FAKE_GPU_COUNT GPUs with the
 * values of fake_gpu_values.h. Not NVIDIA code; no header of theirs is used. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fake_gpu_values.h"

typedef int nvmlReturn_t;
typedef struct nvmlDevice_st* nvmlDevice_t;
typedef struct {
  unsigned int gpu;
  unsigned int memory;
} nvmlUtilization_t;
typedef struct {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
} nvmlMemory_t;
typedef struct {
  unsigned long long referenceTime;
  unsigned long long violationTime;
} nvmlViolationTime_t;
typedef struct {
  unsigned int pid;
  unsigned long long timeStamp;
  unsigned int smUtil;
  unsigned int memUtil;
  unsigned int encUtil;
  unsigned int decUtil;
} nvmlProcessUtilizationSample_t;
typedef struct nvmlEventSet_st* nvmlEventSet_t;
typedef struct {
  nvmlDevice_t device;
  unsigned long long eventType;
  unsigned long long eventData;
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
} nvmlEventData_t;

#define NVML_SUCCESS 0
#define NVML_ERROR_UNINITIALIZED 1
#define NVML_ERROR_INVALID_ARGUMENT 2
#define NVML_ERROR_NOT_SUPPORTED 3
#define NVML_ERROR_NOT_FOUND 6
#define NVML_ERROR_INSUFFICIENT_SIZE 7
#define NVML_ERROR_TIMEOUT 10

#define EXPORT __attribute__((visibility("default")))

static int g_initialized = 0;
static double g_t0 = 0;
static struct nvmlDevice_st {
  int index;
} g_devices[FAKE_GPU_COUNT] = {{0}, {1}};

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int index_of(nvmlDevice_t d) {
  if (!g_initialized || d == NULL) return -1;
  for (int i = 0; i < FAKE_GPU_COUNT; ++i)
    if (d == &g_devices[i]) return i;
  return -1;
}

EXPORT nvmlReturn_t nvmlInit_v2(void) {
  if (!g_initialized) g_t0 = now_s();
  g_initialized = 1;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlShutdown(void) {
  g_initialized = 0;
  return NVML_SUCCESS;
}
EXPORT const char* nvmlErrorString(nvmlReturn_t r) {
  switch (r) {
    case NVML_SUCCESS: return "Success";
    case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
    case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
    default: return "Unknown Error";
  }
}
EXPORT nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int* count) {
  if (!g_initialized) return NVML_ERROR_UNINITIALIZED;
  if (count == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *count = FAKE_GPU_COUNT;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t* device) {
  if (!g_initialized) return NVML_ERROR_UNINITIALIZED;
  if (index >= FAKE_GPU_COUNT || device == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *device = &g_devices[index];
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char* name, unsigned int length) {
  const int i = index_of(d);
  if (i < 0 || name == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  if (snprintf(name, length, "Fake NVIDIA H100 80GB HBM3") >= (int)length)
    return NVML_ERROR_INSUFFICIENT_SIZE;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char* uuid, unsigned int length) {
  const int i = index_of(d);
  if (i < 0 || uuid == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  if (snprintf(uuid, length, "GPU-fa4e0000-0000-4000-8000-00000000000%d", i) >= (int)length)
    return NVML_ERROR_INSUFFICIENT_SIZE;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned int* mw) {
  const int i = index_of(d);
  if (i < 0 || mw == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *mw = (unsigned int)(kFakePowerW[i] * 1000.0);
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t d, unsigned long long* mj) {
  const int i = index_of(d);
  if (i < 0 || mj == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *mj = (unsigned long long)(kFakeEnergyBaseMj + kFakePowerW[i] * (now_s() - g_t0) * 1000.0);
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d, nvmlUtilization_t* u) {
  const int i = index_of(d);
  if (i < 0 || u == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  u->gpu = kFakeGpuUtil[i];
  u->memory = kFakeMemUtil[i];
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t* m) {
  const int i = index_of(d);
  if (i < 0 || m == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  m->total = 80000000000ULL;
  m->used = kFakeMemUsedBytes[i];
  m->free = m->total - m->used;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, int sensor, unsigned int* t) {
  const int i = index_of(d);
  if (i < 0 || t == NULL || sensor != 0) return NVML_ERROR_INVALID_ARGUMENT;
  *t = kFakeTempC[i];
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetEncoderUtilization(nvmlDevice_t d, unsigned int* u,
                                                    unsigned int* period_us) {
  if (index_of(d) < 0 || u == NULL || period_us == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *u = 0;
  *period_us = 167000;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetDecoderUtilization(nvmlDevice_t d, unsigned int* u,
                                                    unsigned int* period_us) {
  if (index_of(d) < 0 || u == NULL || period_us == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  *u = 0;
  *period_us = 167000;
  return NVML_SUCCESS;
}
/* nvmlDeviceGetJpgUtilization is absent on purpose: older drivers lack it, and the collector
 * must then leave nvidia_jpg_utilization out. */
EXPORT nvmlReturn_t nvmlDeviceGetViolationStatus(nvmlDevice_t d, int policy,
                                                 nvmlViolationTime_t* v) {
  const int i = index_of(d);
  if (i < 0 || v == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  if (policy != 0) return NVML_ERROR_NOT_SUPPORTED; /* only power */
  const double elapsed_ns = (now_s() - g_t0) * 1e9;
  v->referenceTime = (unsigned long long)elapsed_ns;
  v->violationTime = (unsigned long long)(elapsed_ns / 10.0);
  return NVML_SUCCESS;
}

/* GPU 0: two processes, each with an older and a newer sample (the newer one counts); the
 * first call asks for 1 slot too few to exercise NVML_ERROR_INSUFFICIENT_SIZE. */
EXPORT nvmlReturn_t nvmlDeviceGetProcessUtilization(nvmlDevice_t d,
                                                    nvmlProcessUtilizationSample_t* s,
                                                    unsigned int* count,
                                                    unsigned long long lastSeen) {
  const int i = index_of(d);
  if (i < 0 || count == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  if (i == 1) return NVML_ERROR_NOT_FOUND;
  const unsigned long long now_us = (unsigned long long)(now_s() * 1e6);
  const nvmlProcessUtilizationSample_t all[4] = {
      {100, now_us - 2000, 90, 0, 0, 0}, {100, now_us - 1000, kFakeSmUtilA, 0, 0, 0},
      {200, now_us - 1500, kFakeSmUtilB, 0, 0, 0}, {200, now_us - 2500, 99, 0, 0, 0}};
  (void)lastSeen;
  if (*count < 4 || s == NULL) {
    *count = 4;
    return NVML_ERROR_INSUFFICIENT_SIZE;
  }
  memcpy(s, all, sizeof(all));
  *count = 4;
  return NVML_SUCCESS;
}

static struct nvmlEventSet_st {
  int registered;
  int xid_pending;
} g_events;

EXPORT nvmlReturn_t nvmlEventSetCreate(nvmlEventSet_t* set) {
  if (!g_initialized || set == NULL) return NVML_ERROR_UNINITIALIZED;
  g_events.registered = 0;
  g_events.xid_pending = 1;
  *set = &g_events;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceRegisterEvents(nvmlDevice_t d, unsigned long long types,
                                             nvmlEventSet_t set) {
  const int i = index_of(d);
  if (i < 0 || set != &g_events) return NVML_ERROR_INVALID_ARGUMENT;
  if (i == 1 || (types & 0x8ULL) == 0) return NVML_ERROR_NOT_SUPPORTED;
  g_events.registered = 1;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlEventSetWait_v2(nvmlEventSet_t set, nvmlEventData_t* data,
                                        unsigned int timeout_ms) {
  (void)timeout_ms;
  if (set != &g_events || data == NULL) return NVML_ERROR_INVALID_ARGUMENT;
  if (!g_events.registered || !g_events.xid_pending) return NVML_ERROR_TIMEOUT;
  g_events.xid_pending = 0;
  memset(data, 0, sizeof(*data));
  data->device = &g_devices[0];
  data->eventType = 0x8ULL;
  data->eventData = kFakeXid;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlEventSetFree(nvmlEventSet_t set) {
  return set == &g_events ? NVML_SUCCESS : NVML_ERROR_INVALID_ARGUMENT;
}
