// The response parser of video_generation: OpenAI's and SGLang's asynchronous video jobs, in
// three kinds of steps (endpoint.h StepContext/FollowUp), as AIPerf runs them:
//   submit    POST <url> → {"id":"<job>","object":"video","status":"queued",..}
//             → poll at once: GET <url>/<job>
//   poll      GET <url>/<job> → {"id":..,"status":"queued"|"in_progress"|"completed"|"failed",
//             "progress":0..100,"url":..,"inference_time_s":x,"peak_memory_mb":y,"error":{..}}
//             → not finished: poll again after `poll_interval_ns`;
//               "completed": inference_time_s → RequestRecord::video_inference_s,
//               peak_memory_mb → video_peak_memory_mb (when the server reports them),
//               output_items = 1, and with `download` one more step;
//               "failed": kServerError "video generation failed: <error.message>".
//   download  GET the job's `url` when it is an http(s) URL, else <url>/<job>/content → the
//             video bytes (counted in response_bytes; an empty body is malformed).
// The submit answer and the completed poll each add one kEmpty chunk (no tokens: no TTFT);
// request latency ends when the last step's answer arrived, so it includes the download when
// one is asked for (--download-video-content, as AIPerf documents it). A submit answer with an
// error object, or without an id, fails the request.
//
// Thread safety: one parser per worker; it keeps no state between calls (all of a request's
// state is in its record and its StepContext).
#pragma once

#include <cstdint>
#include <memory>

#include "endpoints/endpoint.h"

namespace servebench::endpoints {

std::unique_ptr<EventParser> make_video_parser(int64_t poll_interval_ns, bool download);

}  // namespace servebench::endpoints
