// The OpenAI embeddings body renderer (embeddings.cc), shared by the types that send the same
// body under another name (nim_embeddings): {"model":..,"input":["text",...],<extras>}.
//
// Thread safety: the endpoint is immutable.
#pragma once

#include <memory>
#include <string_view>

#include "core/result.h"
#include "endpoints/endpoint.h"

namespace servebench::endpoints {

// `name` is the endpoint's type name (a static string: the spec's name).
Result<std::unique_ptr<Endpoint>> make_embeddings_endpoint(std::string_view name,
                                                           const EndpointOptions& options);

}  // namespace servebench::endpoints
