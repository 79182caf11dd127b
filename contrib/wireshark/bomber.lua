-- Wireshark dissector for Bomber, the game protocol of bomberd
-- (docs/protocol.md). Load it with
--   wireshark -X lua_script:contrib/wireshark/bomber.lua
--   tshark -X lua_script:contrib/wireshark/bomber.lua -r capture.pcap -Y bomber
-- or copy it to ~/.local/lib/wireshark/plugins/.
--
-- Every segment is: descriptor (1 byte), payload length (2 bytes, big-endian),
-- payload (0..29 bytes). Segments split over TCP packets are reassembled and
-- one packet may hold several. The direction is the source port: from the
-- server port (preference "bomber.port", default 20343) is server to client.
-- Coordinates are decoded by direction: the client sends ASCII digits, the
-- server sends SingleCoord/DoubleCoord as binary bytes 0..9 and Board as ASCII.
-- Like the daemon, either encoding is read in either direction; the
-- unexpected one is flagged. bomber.text reads like a transcript comment
-- (segment.Describe with passwords shown), bomber.summary prefixes it with
-- '>' (client to server) or '<' (server to client).
--
-- A client whose first segment is Hello speaks the extended protocol, and
-- the server to it: every message type of version 1 is decoded, a message
-- in several segments (T|More fragments of 29 bytes, then T) is reassembled
-- and shown whole on its last segment, decoded field by field
-- (bomber.message, bomber.field; segment.DescribeMessage's text), and a
-- broken fragmentation is a framing error, as in the daemon.

local bomber = Proto("bomber", "Bomber game protocol")

local HEADER, MAX_PAYLOAD, MORE = 3, 29, 0x80
local HELLO = 0x20

-- descriptor -> name, min and max payload length (segment/segment.go)
local types = {
  [0x00] = { "Info", 0, 29 },          [0x01] = { "InfoResp", 1, 1 },
  [0x02] = { "Passwd", 0, 29 },        [0x03] = { "PasswdResp", 1, 1 },
  [0x04] = { "Refuse", 1, 1 },         [0x06] = { "SyncBegin", 0, 29 },
  [0x07] = { "NewOnline", 0, 29 },     [0x08] = { "SyncEnd", 0, 0 },
  [0x09] = { "SendInvit", 0, 29 },     [0x0a] = { "RecvInvit", 0, 29 },
  [0x0b] = { "InvitResponse", 1, 1 },  [0x0c] = { "Board", 0, 29 },
  [0x0d] = { "SingleCoord", 0, 29 },   [0x0e] = { "DoubleCoord", 0, 29 },
  [0x0f] = { "GameOver", 0, 0 },       [0x10] = { "NewOffline", 0, 29 },
}

-- The extended protocol (docs/protocol.md sections 8 and 9; segment/ext.go
-- and segment/seats.go): a connection whose client's first segment is Hello
-- speaks it both ways. Descriptor T (0x20-0x46) carries a message of type T
-- and a body of 0..cap bytes; a body over 29 bytes travels as T|More (0x80
-- set) fragments of exactly 29 bytes, then T with the rest.
-- type -> name, cap (the largest body)
local ext = {
  [0x20] = { "Hello", 29 },      [0x21] = { "Welcome", 29 },  [0x22] = { "CatalogReq", 0 },
  [0x23] = { "Game", 1024 },     [0x24] = { "Create", 256 },  [0x25] = { "ListReq", 0 },
  [0x26] = { "Join", 64 },       [0x27] = { "Watch", 64 },    [0x28] = { "Leave", 0 },
  [0x29] = { "Invite", 32 },     [0x2a] = { "Ready", 0 },     [0x2b] = { "Move", 18 },
  [0x2c] = { "MoveText", 64 },   [0x2d] = { "ViewReq", 0 },   [0x2e] = { "Offer", 8 },
  [0x2f] = { "Resign", 0 },      [0x30] = { "Chat", 300 },    [0x31] = { "Table", 512 },
  [0x32] = { "Joined", 29 },     [0x33] = { "Started", 64 },  [0x34] = { "Step", 29 },
  [0x35] = { "Moved", 96 },      [0x36] = { "View", 1024 },   [0x37] = { "GameEnd", 128 },
  [0x38] = { "Error", 64 },      [0x39] = { "ChatMsg", 340 }, [0x3a] = { "Invited", 96 },
  [0x3b] = { "Commit", 64 },     [0x3c] = { "Ping", 4 },      [0x3d] = { "Pong", 4 },
  [0x3e] = { "SignUp", 64 },
  [0x3f] = { "Ack", 29 },        [0x40] = { "Bot", 1 },
  [0x41] = { "Seated", 29 },     [0x42] = { "HintReq", 29 },  [0x43] = { "Resume", 29 },   [0x44] = { "Clock", 64 },
  [0x45] = { "Away", 29 },       [0x46] = { "Bye", 0 },       [0x47] = { "Legal", 1024 },
  [0x48] = { "Seek", 256 },      [0x49] = { "Seeking", 256 },
  [0x4a] = { "HistoryReq", 64 }, [0x4b] = { "RatingRow", 96 }, [0x4c] = { "GameRow", 200 },
  [0x4d] = { "ReplayReq", 10 },  [0x4e] = { "Replay", 512 },  [0x4f] = { "Account", 64 },
  [0x50] = { "Hints", 1024 },
}

-- ext_base is t without the More bit when t is in the extended range
local function ext_base(t)
  local b = t >= MORE and t - MORE or t
  if b >= 0x20 and b <= 0x50 then return b end
  return nil
end

-- type_name names any descriptor byte as segment.Type's String does
local function type_name(t)
  if types[t] then return types[t][1] end
  if t == 0x05 then return "Unused05" end
  local b = ext_base(t)
  if b and ext[b] then return t >= MORE and ext[b][1] .. "|More" or ext[b][1] end
  return string.format("Type(0x%02x)", t)
end

local type_names = {}
for t = 0, 255 do type_names[t] = type_name(t) end

-- reply codes, named by the reference table whatever the dialect
local code_names = {
  [0] = "no such user", [1] = "OK", [2] = "refused", [3] = "wrong password",
  [4] = "error", [5] = "already logged in", [6] = "busy",
}

local name_types = { [0x00] = true, [0x06] = true, [0x07] = true, [0x09] = true, [0x0a] = true, [0x10] = true }
local code_types = { [0x01] = true, [0x03] = true, [0x04] = true, [0x0b] = true }

local f = bomber.fields
f.type = ProtoField.uint8("bomber.type", "Descriptor", base.HEX, type_names)
f.length = ProtoField.uint16("bomber.length", "Payload length", base.DEC)
f.payload = ProtoField.bytes("bomber.payload", "Payload")
f.direction = ProtoField.string("bomber.direction", "Direction")
f.text = ProtoField.string("bomber.text", "Decoded")
f.summary = ProtoField.string("bomber.summary", "Summary")
f.name = ProtoField.string("bomber.name", "User name")
f.password = ProtoField.string("bomber.password", "Password")
f.code = ProtoField.uint8("bomber.code", "Reply code", base.DEC, code_names)
f.encoding = ProtoField.string("bomber.encoding", "Coordinate encoding")
f.coord = ProtoField.string("bomber.coord", "Cell (row,column)")
f.x = ProtoField.uint8("bomber.x", "Row (x)")
f.y = ProtoField.uint8("bomber.y", "Column (y)")
f.plane = ProtoField.string("bomber.plane", "Plane (head-tail centre)")
f.message = ProtoField.string("bomber.message", "Message")
f.body_length = ProtoField.uint16("bomber.body_length", "Message body length", base.DEC)
f.segments = ProtoField.uint16("bomber.segments", "Segments of the message", base.DEC)
f.field = ProtoField.string("bomber.field", "Field")

local e = {
  unknown = ProtoExpert.new("bomber.unknown", "Unknown segment descriptor: the daemon closes the connection",
    expert.group.MALFORMED, expert.severity.ERROR),
  length = ProtoExpert.new("bomber.bad_length", "Impossible payload length for this descriptor: the daemon closes the connection",
    expert.group.MALFORMED, expert.severity.ERROR),
  fragments = ProtoExpert.new("bomber.bad_fragments", "Broken message fragmentation: the daemon closes the connection",
    expert.group.MALFORMED, expert.severity.ERROR),
  malformed = ProtoExpert.new("bomber.malformed", "Malformed coordinate payload (a guess counts as a miss, a board closes the connection)",
    expert.group.MALFORMED, expert.severity.WARN),
  body = ProtoExpert.new("bomber.bad_body", "Malformed message body (the daemon answers with Error; a malformed Hello closes the connection)",
    expert.group.MALFORMED, expert.severity.WARN),
  encoding = ProtoExpert.new("bomber.unexpected_encoding", "Coordinate digits in the other direction's encoding (the daemon accepts them; the reference client does not)",
    expert.group.PROTOCOL, expert.severity.NOTE),
}
bomber.experts = { e.unknown, e.length, e.fragments, e.malformed, e.body, e.encoding }

bomber.prefs.port = Pref.uint("Server port", 20343, "TCP port of bomberd; packets from it go server to client")

-- quote like Go's strconv.Quote: printable ASCII as it is, the usual
-- escapes, other bytes as \xNN (bytes of UTF-8 sequences are kept, as Go
-- keeps printable runes)
local escapes = { [7] = "\\a", [8] = "\\b", [9] = "\\t", [10] = "\\n", [11] = "\\v", [12] = "\\f", [13] = "\\r" }
local function quote(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    if c == '"' or c == "\\" then return "\\" .. c end
    return escapes[c:byte()] or string.format("\\x%02x", c:byte())
  end) .. '"'
end

-- digit reads one coordinate byte in either encoding: value, "ascii"|"binary"
local function digit(b)
  if b <= 9 then return b, "binary" end
  if b >= 0x30 and b <= 0x39 then return b - 0x30, "ascii" end
  return nil
end

-- coords decodes n cells; returns the cells or nil, and whether an
-- encoding other than the expected one was seen
local function coords(payload, n, expected)
  if payload:len() ~= 2 * n then return nil end
  local cells, other = {}, false
  for i = 0, n - 1 do
    local x, ex = digit(payload(2 * i, 1):uint())
    local y, ey = digit(payload(2 * i + 1, 1):uint())
    if x == nil or y == nil then return nil end
    other = other or ex ~= expected or ey ~= expected
    cells[#cells + 1] = { x = x, y = y, off = 2 * i }
  end
  return cells, other
end

local function cell(c) return string.format("(%d,%d)", c.x, c.y) end

-- Message bodies (segment/messages.go, segment/seats.go), described as
-- transcript comments describe them (segment.DescribeMessage): the type's
-- name and "field=value" for each field in order. Field kinds: u8 u16 u32
-- u64 i8 i16 i32; str (u8 length, bytes); rest (the rest of the body, text);
-- type (u8, a descriptor's name); h32 and tok (32 and 16 raw bytes, shown
-- by their first four); u8s and i16s (u8 count, items); b16 (u16 length,
-- bytes); move (kind u8, len u8 at most 16, arg[len]); strs (u8 count,
-- strs); list (u8 count of the struct in f[3], at least f[4] bytes each);
-- legal (Legal's groups: u8 count; each kind u8, len u8, prefix of len/2
-- bytes, u8 count of suffixes of len-len/2 bytes).
local function kvs(name) return { name, "list", { { "key", "str" }, { "value", "str" } }, 2 } end
local layouts = {
  [0x20] = { { "version", "u8" }, { "features", "u32" } },
  [0x21] = { { "version", "u8" }, { "features", "u32" }, { "maxMessage", "u16" } },
  [0x23] = { { "name", "str" }, { "min", "u8" }, { "max", "u8" }, { "options", "list", {
    { "key", "str" }, { "kind", "u8" }, { "default", "str" }, { "min", "i32" }, { "max", "i32" },
    { "choices", "strs" }, { "doc", "str" } }, 13 } },
  [0x24] = { { "game", "str" }, { "seats", "u8" }, { "flags", "u8" }, kvs("options") },
  [0x26] = { { "table", "u32" }, { "seat", "u8" }, { "code", "str" } },
  [0x27] = { { "table", "u32" }, { "code", "str" } },
  [0x29] = { { "user", "str" } },
  [0x2b] = { { "", "move" } },
  [0x2c] = { { "notation", "rest" } },
  [0x30] = { { "scope", "u8" }, { "text", "rest" } },
  [0x31] = { { "id", "u32" }, { "game", "str" }, { "flags", "u8" }, { "phase", "u8" }, { "watchers", "u16" },
    { "code", "str" }, { "seats", "list", { { "name", "str" }, { "flags", "u8" } }, 2 }, kvs("options") },
  [0x32] = { { "table", "u32" }, { "seat", "u8" } },
  [0x33] = { { "table", "u32" }, { "seats", "u8" }, { "seedCommit", "h32" } },
  [0x34] = { { "seq", "u32" }, { "kind", "u8" }, { "player", "i8" }, { "a", "i16" }, { "b", "i16" }, { "c", "i16" } },
  [0x35] = { { "seq", "u32" }, { "seat", "u8" }, { "", "move" }, { "notation", "str" } },
  [0x36] = { { "seq", "u32" }, { "viewer", "i8" }, { "status", "u8" }, { "toMove", "u8s" }, { "scores", "i16s" },
    { "cells", "b16" }, { "extra", "b16" } },
  [0x37] = { { "table", "u32" }, { "status", "u8" }, { "winners", "u8s" }, { "scores", "i16s" }, { "reason", "str" },
    { "seed", "h32" } },
  [0x38] = { { "req", "type" }, { "code", "u8" }, { "text", "str" } },
  [0x39] = { { "scope", "u8" }, { "table", "u32" }, { "from", "str" }, { "text", "rest" } },
  [0x3a] = { { "from", "str" }, { "table", "u32" }, { "game", "str" }, { "code", "str" } },
  [0x3b] = { { "table", "u32" }, { "seat", "u8" }, { "hash", "h32" } },
  [0x3c] = { { "nonce", "u32" } },
  [0x3d] = { { "nonce", "u32" } },
  [0x3f] = { { "req", "type" } },
  [0x40] = { { "seat", "u8" } },
  [0x41] = { { "table", "u32" }, { "seat", "u8" }, { "token", "tok" } },
  [0x43] = { { "table", "u32" }, { "seat", "u8" }, { "token", "tok" }, { "lastSeq", "u32" } },
  [0x44] = { { "table", "u32" }, { "seats", "list", { { "left", "i32" }, { "flags", "u8" } }, 5 } },
  [0x45] = { { "table", "u32" }, { "seat", "u8" }, { "grace", "u32" } },
  [0x47] = { { "table", "u32" }, { "seq", "u32" }, { "seat", "u8" }, { "flags", "u8" }, { "groups", "legal" } },
  [0x42] = { { "table", "u32" }, { "chosen", "u8s" } },
  [0x50] = { { "table", "u32" }, { "seq", "u32" }, { "seat", "u8" }, { "flags", "u8" }, { "groups", "legal" } },
  [0x3e] = { { "name", "str" }, { "password", "str" } },
  [0x48] = { { "action", "u8" }, { "game", "str" }, { "rated", "u8" }, kvs("options") },
  [0x49] = { { "state", "u8" }, { "flags", "u8" }, { "game", "str" }, { "rated", "u8" }, { "rating", "u16" }, { "low", "u16" },
    { "high", "u16" }, { "waited", "u16" }, kvs("options") },
  [0x4a] = { { "what", "u8" }, { "user", "str" }, { "game", "str" }, { "page", "u16" } },
  [0x4b] = { { "what", "u8" }, { "user", "str" }, { "game", "str" }, { "rating", "u16" }, { "deviation", "u16" },
    { "games", "u32" }, { "flags", "u8" }, { "at", "u32" }, { "gameID", "u64" }, { "before", "u16" } },
  [0x4c] = { { "id", "u64" }, { "game", "str" }, { "result", "u8" }, { "flags", "u8" }, { "change", "i16" },
    { "ended", "u32" }, { "moves", "u16" }, { "reason", "str" }, { "opponents", "strs" } },
  [0x4d] = { { "id", "u64" }, { "ply", "u16" } },
  [0x4e] = { { "id", "u64" }, { "game", "str" }, { "ply", "u16" }, { "plies", "u16" }, { "seat", "i8" },
    { "notation", "str" }, { "status", "u8" }, { "reason", "str" }, { "seats", "strs" }, kvs("options") },
  [0x4f] = { { "what", "u8" }, { "password", "str" }, { "new", "str" } },
}
-- Offer: a client answers (what, answer); the server tells (what, state, seat)
local offer_request = { { "what", "u8" }, { "answer", "u8" } }
local offer_state = { { "what", "u8" }, { "state", "u8" }, { "seat", "u8" } }

local ELLIPSIS = "\226\128\166" -- …

-- reader reads a body (a Lua string) as segment.Reader does: big-endian
-- numbers; the first short read or bad count makes it fail for good.
local function reader(body)
  local r = { pos = 1, ok = true }
  function r.left() return #body - r.pos + 1 end
  function r.take(n)
    if not r.ok or n > r.left() then r.ok = false; return nil end
    local p = body:sub(r.pos, r.pos + n - 1)
    r.pos = r.pos + n
    return p
  end
  function r.uint(n)
    local p = r.take(n)
    if p == nil then return 0 end
    local v = 0
    for i = 1, n do v = v * 256 + p:byte(i) end
    return v
  end
  function r.int(n)
    local v = r.uint(n)
    if v >= 2 ^ (8 * n - 1) then v = v - 2 ^ (8 * n) end
    return v
  end
  function r.count(per)
    local n = r.uint(1)
    if r.ok and n * per > r.left() then r.ok = false; return 0 end
    return n
  end
  return r
end

local function bytes_list(p)
  if #p > 16 then return string.format("[%d bytes]", #p) end
  local out = {}
  for i = 1, #p do out[i] = string.format("%d", p:byte(i)) end
  return "[" .. table.concat(out, " ") .. "]"
end

local function prefix_hex(p)
  return string.format("%02x%02x%02x%02x", p:byte(1, 4)) .. ELLIPSIS
end

-- fields reads the fields of layout from r; each read field is added to
-- out as { name, value text, offset, length } (offsets from 0); it returns
-- the "name=value ..." text.
local function fields(r, layout, out)
  local parts = {}
  local function put(name, value, from)
    parts[#parts + 1] = name .. "=" .. value
    out[#out + 1] = { name, value, from - 1, r.pos - from }
  end
  for _, fd in ipairs(layout) do
    local name, kind, from = fd[1], fd[2], r.pos
    if kind == "u8" or kind == "u16" or kind == "u32" or kind == "u64" then
      put(name, string.format("%d", r.uint(({ u8 = 1, u16 = 2, u32 = 4, u64 = 8 })[kind])), from)
    elseif kind == "i8" or kind == "i16" or kind == "i32" then
      put(name, string.format("%d", r.int(({ i8 = 1, i16 = 2, i32 = 4 })[kind])), from)
    elseif kind == "type" then
      put(name, type_name(r.uint(1)), from)
    elseif kind == "str" then
      put(name, quote(r.take(r.uint(1)) or ""), from)
    elseif kind == "rest" then
      put(name, quote(r.take(r.left()) or ""), from)
    elseif kind == "h32" or kind == "tok" then
      local p = r.take(kind == "h32" and 32 or 16)
      put(name, p and prefix_hex(p) or "", from)
    elseif kind == "u8s" then
      put(name, bytes_list(r.take(r.count(1)) or ""), from)
    elseif kind == "b16" then
      put(name, bytes_list(r.take(r.uint(2)) or ""), from)
    elseif kind == "i16s" then
      local v = {}
      for i = 1, r.count(2) do v[i] = string.format("%d", r.int(2)) end
      put(name, "[" .. table.concat(v, " ") .. "]", from)
    elseif kind == "strs" then
      local v = {}
      for i = 1, r.count(1) do v[i] = quote(r.take(r.uint(1)) or "") end
      put(name, "[" .. table.concat(v, " ") .. "]", from)
    elseif kind == "list" then
      local v = {}
      for i = 1, r.count(fd[4]) do v[i] = "{" .. fields(r, fd[3], {}) .. "}" end
      put(name, "[" .. table.concat(v, " ") .. "]", from)
    elseif kind == "legal" then
      local v = {}
      for i = 1, r.count(3) do
        local k, l = r.uint(1), r.uint(1)
        if l > 16 then r.ok = false end
        local p = math.floor(l / 2)
        local pre = r.ok and r.take(p) or ""
        local sufs = {}
        for j = 1, r.count(math.max(l - p, 1)) do sufs[j] = bytes_list(r.take(l - p) or "") end
        v[i] = string.format("{kind=%d len=%d prefix=%s suffixes=[%s]}", k, l, bytes_list(pre), table.concat(sufs, " "))
      end
      put(name, "[" .. table.concat(v, " ") .. "]", from)
    elseif kind == "move" then
      put("kind", string.format("%d", r.uint(1)), from)
      local n, at = r.uint(1), r.pos
      if n > 16 then r.ok = false end
      put("arg", bytes_list(r.ok and r.take(n) or ""), at)
    end
  end
  return table.concat(parts, " ")
end

-- describe_message decodes a whole body of extended type t: its text, and
-- its fields (nil when the body is malformed)
local function describe_message(t, body)
  local name, layout = ext[t][1], layouts[t]
  if t == 0x2e then layout = #body == 2 and offer_request or offer_state end
  local r, out = reader(body), {}
  local text = layout and fields(r, layout, out) or ""
  if not r.ok or r.left() > 0 then
    return string.format("%s (malformed, %d bytes)", name, #body), nil
  end
  if text == "" then return name, out end
  return name .. " " .. text, out
end

-- one segment's tree item: descriptor, length, direction, payload
local function segment_item(tvb, offset, len, tree, to_client)
  local item = tree:add(bomber, tvb(offset, HEADER + len))
  item:add(f.type, tvb(offset, 1))
  item:add(f.length, tvb(offset + 1, 2))
  item:add(f.direction, to_client and "server to client" or "client to server")
  if len > 0 then item:add(f.payload, tvb(offset + HEADER, len)) end
  return item
end

local function finish(item, text, to_client)
  item:add(f.text, text)
  item:add(f.summary, (to_client and "< " or "> ") .. text)
  item:append_text(", " .. text)
  return text
end

-- reference decodes a whole segment of the 16 reference types
local function reference(tvb, offset, len, item, to_client)
  local t = tvb(offset, 1):uint()
  local name = types[t][1]
  local text = name
  local payload = len > 0 and tvb(offset + HEADER, len) or nil
  if name_types[t] then
    local s = payload and payload:string() or ""
    if payload then item:add(f.name, payload) end
    text = name .. " " .. quote(s)
  elseif t == 0x02 then
    local s = payload and payload:string() or ""
    if payload then item:add(f.password, payload) end
    text = name .. " " .. quote(s)
  elseif code_types[t] then
    local c = payload(0, 1):uint()
    item:add(f.code, payload(0, 1))
    text = string.format("%s %d (%s)", name, c, code_names[c] or "unknown")
  elseif t == 0x0c or t == 0x0d or t == 0x0e then
    local n = ({ [0x0c] = 6, [0x0d] = 1, [0x0e] = 2 })[t]
    -- boards are ASCII both ways; guesses are binary to the client
    local expected = (to_client and t ~= 0x0c) and "binary" or "ascii"
    local cells, other = nil, false
    if payload then cells, other = coords(payload, n, expected) end
    if cells == nil then
      local why = "malformed " .. name .. " (" .. len .. " bytes)"
      if t == 0x0e and payload and payload:string():sub(1, 4) == "-1-1" then
        why = why .. ": the reference client's '-1-1' after a wrong double guess"
      end
      item:add_proto_expert_info(e.malformed, why)
      text = name .. " (malformed)"
    else
      item:add(f.encoding, other and (expected == "ascii" and "binary" or "ascii") or expected)
      if other then item:add_proto_expert_info(e.encoding) end
      for _, c in ipairs(cells) do
        local ci = item:add(f.coord, payload(c.off, 2), cell(c))
        ci:add(f.x, payload(c.off, 1), c.x)
        ci:add(f.y, payload(c.off + 1, 1), c.y)
      end
      if t == 0x0d then
        text = name .. " " .. cell(cells[1])
      else
        for i = 1, #cells, 2 do
          local p = cell(cells[i]) .. "-" .. cell(cells[i + 1])
          item:add(f.plane, payload(cells[i].off, 4), p)
          text = text .. " " .. p
        end
      end
    end
  end
  return text
end

-- raw_hex is a Lua string's bytes in hex, for ByteArray.new
local function raw_hex(s)
  return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

-- extended takes a segment of an extended type into st's message in
-- progress: a fragment says how much it carries; the last segment shows
-- the whole message, reassembled in a tab of its own when it took several.
local function extended(tvb, offset, len, item, st)
  local t = tvb(offset, 1):uint()
  local b = ext_base(t)
  local name = ext[b][1]
  local body = st.body .. (len > 0 and tvb:raw(offset + HEADER, len) or "")
  st.segments = st.segments + 1
  if t >= MORE then
    st.pending, st.body = b, body
    return string.format("%s (%d bytes, more follows)", type_name(t), len)
  end
  local segments = st.segments
  st.pending, st.body, st.segments = nil, "", 0
  local text, out = describe_message(b, body)
  local msg = item:add(f.message, text)
  msg:add(f.body_length, #body)
  if out == nil then
    item:add_proto_expert_info(e.body)
    return text
  end
  local src
  if segments > 1 then
    msg:add(f.segments, segments)
    src = ByteArray.new(raw_hex(body)):tvb(name .. " message")
  elseif len > 0 then
    src = tvb(offset + HEADER, len):tvb()
  end
  for _, fd in ipairs(out) do
    if src and fd[4] > 0 then
      msg:add(f.field, src(fd[3], fd[4]), fd[1] .. "=" .. fd[2])
    else
      msg:add(f.field, fd[1] .. "=" .. fd[2])
    end
  end
  return text
end

-- fragmentation checks what the daemon's assembler checks of segment t of
-- len bytes, given the message in progress; it returns why the daemon
-- closes the connection, or nil
local function fragmentation(t, len, st)
  local b = ext_base(t)
  if b == nil then
    if st.pending then
      return string.format("%s arrived inside a %s message", type_name(t), ext[st.pending][1])
    end
    return nil
  end
  if st.pending and b ~= st.pending then
    return string.format("%s arrived inside a %s message", type_name(t), ext[st.pending][1])
  end
  if #st.body + len > ext[b][2] then
    return string.format("%s body passes its cap of %d bytes", ext[b][1], ext[b][2])
  end
  if t < MORE and st.pending and len == 0 then
    return string.format("empty last segment of a %s message", ext[b][1])
  end
  return nil
end

-- header checks a segment header as segment.CheckHeader does; it returns
-- why the length is impossible, or nil
local function header(t, len)
  local b = ext_base(t)
  if b == nil then
    local ty = types[t]
    if len < ty[2] or len > ty[3] then
      return string.format("%s with %d payload bytes (want %d..%d)", ty[1], len, ty[2], ty[3])
    end
    return nil
  end
  local cap = ext[b][2]
  if t >= MORE then
    if cap <= MAX_PAYLOAD or len ~= MAX_PAYLOAD then
      return string.format("%s with %d payload bytes (a fragment carries %d, and only for a cap over %d; cap %d)",
        type_name(t), len, MAX_PAYLOAD, MAX_PAYLOAD, cap)
    end
  elseif len > math.min(MAX_PAYLOAD, cap) then
    return string.format("%s with %d payload bytes (want 0..%d)", type_name(t), len, math.min(MAX_PAYLOAD, cap))
  end
  return nil
end

-- a framing error: the daemon stops reading the stream here, and so does
-- this dissector for the rest of the stream
local function framing_error(tvb, offset, tree, to_client, why, ex)
  local item = tree:add(bomber, tvb(offset))
  item:add(f.type, tvb(offset, 1))
  if tvb:len() - offset >= HEADER then item:add(f.length, tvb(offset + 1, 2)) end
  item:add(f.direction, to_client and "server to client" or "client to server")
  item:add_proto_expert_info(ex, why)
  return finish(item, "protocol error: " .. why, to_client)
end

-- What the daemon knows of one direction of a connection before the next
-- byte: seen (a whole segment was read), ext (extended descriptors are
-- accepted), pending, body and segments (the message whose fragments have
-- begun). live holds it as of the data dissected so far, in capture order.
-- Wireshark dissects a frame again later (a second pass, a click on a
-- packet), and TCP may then cut the frame's data into calls differently, so
-- the state before each segment is kept by the frame that completes the
-- segment and its place among that frame's segments (before), and a framing
-- error by its frame (broken_at): nothing after it is decoded.
local live, before, broken_at = {}, {}, {}
local place_frame, places = -1, {}

local function new_state() return { seen = false, ext = false, pending = nil, body = "", segments = 0 } end

local function copy(st)
  local c = {}
  for k, v in pairs(st) do c[k] = v end
  return c
end

function bomber.init() live, before, broken_at, place_frame, places = {}, {}, {}, -1, {} end

-- state_at is the state before the next segment of stream in this frame:
-- on the first pass the live one, recorded; later the recorded one
local function state_at(stream, pinfo, st)
  if pinfo.number ~= place_frame then place_frame, places = pinfo.number, {} end
  places[stream] = (places[stream] or 0) + 1
  local key = string.format("%s|%d|%d", stream, pinfo.number, places[stream])
  if not pinfo.visited then
    before[key] = copy(st)
    return st
  end
  if before[key] == nil and places[stream] > 1 then
    -- the frame is dissected again from its start (a second click)
    places[stream] = 1
    key = string.format("%s|%d|1", stream, pinfo.number)
  end
  return before[key] and copy(before[key]) or st
end

function bomber.dissector(tvb, pinfo, tree)
  local to_client = pinfo.src_port == bomber.prefs.port
  local src, dst = string.format("%s:%d", tostring(pinfo.src), pinfo.src_port), string.format("%s:%d", tostring(pinfo.dst), pinfo.dst_port)
  local stream, reverse = src .. ">" .. dst, dst .. ">" .. src
  pinfo.cols.protocol = "BOMBER"
  if broken_at[stream] and pinfo.number > broken_at[stream] then
    tree:add(bomber, tvb()):append_text(", after a protocol error: not decoded")
    pinfo.cols.info = "after a protocol error: not decoded"
    return tvb:len()
  end
  live[stream] = live[stream] or new_state()
  local st = live[stream]
  if pinfo.visited then st = copy(st) end
  local offset, texts = 0, {}
  local function fail(why, ex)
    texts[#texts + 1] = framing_error(tvb, offset, tree, to_client, why, ex)
    broken_at[stream] = broken_at[stream] or pinfo.number
  end
  while offset < tvb:len() do
    local rest = tvb:len() - offset
    local t = tvb(offset, 1):uint()
    local b = ext_base(t)
    local known = types[t] ~= nil or (b ~= nil and ext[b] ~= nil)
    local len = rest >= HEADER and tvb(offset + 1, 2):uint() or nil
    -- the rest of a segment that may be good is in a later packet
    if known and len == nil then
      pinfo.desegment_offset = offset
      pinfo.desegment_len = DESEGMENT_ONE_MORE_SEGMENT
      break
    end
    if known and rest < HEADER + len and header(t, len) == nil then
      pinfo.desegment_offset = offset
      pinfo.desegment_len = HEADER + len - rest
      break
    end
    -- a whole segment, a bad header or an unknown descriptor
    st = state_at(stream, pinfo, st)
    -- like the daemon, a descriptor it does not accept here is rejected at
    -- its first byte: Hello only as a client's first segment, the other
    -- extended types only after it
    if not (types[t] or (known and (st.ext or (t == HELLO and not to_client and not st.seen)))) then
      fail(string.format("unknown segment descriptor 0x%02x", t), e.unknown)
      break
    end
    local bad = header(t, len)
    if bad then
      fail("bad segment length: " .. bad, e.length)
      break
    end
    if not st.seen then
      st.seen = true
      if t == HELLO then
        st.ext = true
        -- the server answers in the extended protocol too
        if not pinfo.visited then
          live[reverse] = live[reverse] or new_state()
          live[reverse].ext = true
        end
      end
    end
    bad = fragmentation(t, len, st)
    if bad then
      fail("bad message fragmentation: " .. bad, e.fragments)
      break
    end
    local item = segment_item(tvb, offset, len, tree, to_client)
    local text
    if b then
      text = extended(tvb, offset, len, item, st)
    else
      text = reference(tvb, offset, len, item, to_client)
    end
    texts[#texts + 1] = finish(item, text, to_client)
    offset = offset + HEADER + len
  end
  if not pinfo.visited then live[stream] = st end
  pinfo.cols.info = #texts > 0 and (to_client and "S→C " or "C→S ") .. table.concat(texts, "; ") or ""
  return tvb:len()
end

DissectorTable.get("tcp.port"):add(20343, bomber)
