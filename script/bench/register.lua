-- wrk script: registers a new iOS device on every request (a distinct token per thread and request).
-- The client key comes from the environment: NOTIBASE_CLIENT_KEY.
local counter = 0
local thread_id = 0
local threads = {}

function setup(thread)
  thread:set("thread_id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  counter = 0
end

function request()
  counter = counter + 1
  local token = string.format("%08x%056x", thread_id, counter)
  local body = '{"platform":"ios","token":"' .. token .. '","locale":"en-US","tags":["bench"],"appVersion":"1.0"}'
  return wrk.format("POST", "/v1/devices", {
    ["Authorization"] = "Bearer " .. os.getenv("NOTIBASE_CLIENT_KEY"),
    ["Content-Type"] = "application/json",
  }, body)
end

function response(status, headers, body)
  if status ~= 201 and status ~= 200 then
    io.stderr:write("unexpected status " .. status .. ": " .. body .. "\n")
  end
end
