// Vocabulary of the load module that the configuration also speaks: how arrivals are spaced,
// how connections are reused and where a cache-bust marker goes. Kept apart from the load spec
// so that config can name these without depending on the rest of the load module.
#pragma once

namespace servebench::load {

enum class ArrivalPattern { kConstant, kPoisson, kGamma };
enum class ConnectionReuse { kPooled, kNever, kStickyUserSessions };
enum class CacheBust { kNone, kSystemPrefix, kSystemSuffix, kFirstTurnPrefix, kFirstTurnSuffix };

}  // namespace servebench::load
