/* What the fake NVML and AMD SMI libraries report, shared with the tests that predict it.
 * Two GPUs; GPU i draws kFakePowerW[i] watts, constant, and its energy counter integrates that
 * power over CLOCK_MONOTONIC time since the library was initialised, starting at
 * kFakeEnergyBaseMj. So over any interval the counter grows by power × interval. */
#ifndef SERVEBENCH_TESTS_FAKES_FAKE_GPU_VALUES_H_
#define SERVEBENCH_TESTS_FAKES_FAKE_GPU_VALUES_H_

#define FAKE_GPU_COUNT 2
static const double kFakePowerW[FAKE_GPU_COUNT] = {100.0, 150.0};
static const double kFakeEnergyBaseMj = 5.0e9; /* 5 MJ in mJ */
static const unsigned kFakeGpuUtil[FAKE_GPU_COUNT] = {40, 50};
static const unsigned kFakeMemUtil[FAKE_GPU_COUNT] = {20, 21};
static const unsigned kFakeTempC[FAKE_GPU_COUNT] = {50, 51};
static const unsigned long long kFakeMemUsedBytes[FAKE_GPU_COUNT] = {8000000000ULL,
                                                                      9000000000ULL};

/* NVML only: GPU 0 runs two processes whose SM utilisation sums to kFakeSmUtil0 and raises one
 * XID event (kFakeXid) after init; GPU 1 has no process (NVML_ERROR_NOT_FOUND, i.e. 0 %) and
 * does not support XID events. */
static const unsigned kFakeSmUtilA = 30, kFakeSmUtilB = 25;
#define kFakeSmUtil0 (kFakeSmUtilA + kFakeSmUtilB)
static const unsigned long long kFakeXid = 79;

#endif
