-- wrk script: posts a one-device message on every request (a verification code, the typical
-- transactional push), cycling over the audiences in a file, one per line: device IDs or external
-- user IDs of devices already registered.
-- The environment names the rest: NOTIBASE_SERVER_KEY, NOTIBASE_AUDIENCE (deviceIds or
-- externalUserIds) and NOTIBASE_IDS (the file).
-- As in register.lua, wrk shares the machine's cores with the server: every request is formatted
-- once, in init (the IDs differ in length, so each has its own Content-Length), request() only
-- hands out the next one, and there is no response() callback; wrk counts the answers that are not
-- 2xx itself, and script/bench-transactional fails when there are any.
local requests = {}
local index = 0
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end

function init(args)
  local headers = {
    ["Authorization"] = "Bearer " .. os.getenv("NOTIBASE_SERVER_KEY"),
    ["Content-Type"] = "application/json",
  }
  local audience = os.getenv("NOTIBASE_AUDIENCE")
  for id in io.lines(os.getenv("NOTIBASE_IDS")) do
    if id ~= "" then
      requests[#requests + 1] = wrk.format("POST", "/v1/messages", headers,
        '{"message":{"title":"Code","body":"Your code is 123456"},"audience":{"' .. audience .. '":["' .. id .. '"]}}')
    end
  end
  if #requests == 0 then error("no IDs in " .. os.getenv("NOTIBASE_IDS")) end
  -- Each wrk thread starts at its own place in the list, so that threads do not post to the same
  -- devices at the same moment.
  index = math.floor((thread_number or 1) - 1) * math.floor(#requests / 8) % #requests
end

function request()
  index = index % #requests + 1
  return requests[index]
end
