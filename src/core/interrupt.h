// Process-wide interrupt flag: set by the profile command's signal watcher when SIGINT or
// SIGTERM arrives; long set-up loops (reading an input file, building prompts, loading a
// tokenizer) poll interrupt_requested() so Ctrl-C works in every phase, not only during load.
//
// Thread safety: lock-free atomics; any thread.
#pragma once

namespace servebench::core {

// Records the first signal number (SIGINT, SIGTERM) and raises the flag.
void request_interrupt(int signal_number);
bool interrupt_requested();
// The first signal received (0 when none).
int interrupt_signal();
// Tests only: lowers the flag.
void reset_interrupt_for_test();

}  // namespace servebench::core
