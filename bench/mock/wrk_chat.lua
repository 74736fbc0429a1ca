-- wrk script: small non-streaming chat completions against servebench-mock.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"model":"mock-model","messages":[{"role":"user","content":"hello there"}],"max_tokens":8,"ignore_eos":true}'
