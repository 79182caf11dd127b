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

local bomber = Proto("bomber", "Bomber game protocol")

local HEADER, MAX_PAYLOAD = 3, 29

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
local type_names = {}
for k, v in pairs(types) do type_names[k] = v[1] end

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

local e = {
  unknown = ProtoExpert.new("bomber.unknown", "Unknown segment descriptor: the daemon closes the connection",
    expert.group.MALFORMED, expert.severity.ERROR),
  length = ProtoExpert.new("bomber.bad_length", "Impossible payload length for this descriptor: the daemon closes the connection",
    expert.group.MALFORMED, expert.severity.ERROR),
  malformed = ProtoExpert.new("bomber.malformed", "Malformed coordinate payload (a guess counts as a miss, a board closes the connection)",
    expert.group.MALFORMED, expert.severity.WARN),
  encoding = ProtoExpert.new("bomber.unexpected_encoding", "Coordinate digits in the other direction's encoding (the daemon accepts them; the reference client does not)",
    expert.group.PROTOCOL, expert.severity.NOTE),
}
bomber.experts = { e.unknown, e.length, e.malformed, e.encoding }

bomber.prefs.port = Pref.uint("Server port", 20343, "TCP port of bomberd; packets from it go server to client")

-- quote like Go's strconv.Quote for the printable ASCII names of the protocol
local function quote(s)
  return '"' .. s:gsub('[%c"\\\128-\255]', function(c)
    if c == '"' or c == "\\" then return "\\" .. c end
    return string.format("\\x%02x", c:byte())
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

-- decode one whole segment at tvb(offset); returns the decoded text
local function segment(tvb, offset, len, pinfo, tree, to_client)
  local t = tvb(offset, 1):uint()
  local name = types[t][1]
  local item = tree:add(bomber, tvb(offset, HEADER + len))
  item:add(f.type, tvb(offset, 1))
  item:add(f.length, tvb(offset + 1, 2))
  item:add(f.direction, to_client and "server to client" or "client to server")
  local text = name
  local payload = len > 0 and tvb(offset + HEADER, len) or nil
  if payload then item:add(f.payload, payload) end
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
        text = name
        for i = 1, #cells, 2 do
          local p = cell(cells[i]) .. "-" .. cell(cells[i + 1])
          item:add(f.plane, payload(cells[i].off, 4), p)
          text = text .. " " .. p
        end
      end
    end
  end
  item:add(f.text, text)
  item:add(f.summary, (to_client and "< " or "> ") .. text)
  item:append_text(", " .. text)
  return text
end

-- a framing error: the daemon stops reading the stream here, and so does
-- this dissector for the rest of the packet
local function framing_error(tvb, offset, pinfo, tree, to_client, why, ex)
  local item = tree:add(bomber, tvb(offset))
  item:add(f.type, tvb(offset, 1))
  if tvb:len() - offset >= HEADER then item:add(f.length, tvb(offset + 1, 2)) end
  item:add(f.direction, to_client and "server to client" or "client to server")
  local text = "protocol error: " .. why
  item:add_proto_expert_info(ex, why)
  item:add(f.text, text)
  item:add(f.summary, (to_client and "< " or "> ") .. text)
  item:append_text(", " .. text)
  return text
end

-- broken[stream] is the first frame with a framing error in that direction
-- of a connection: like the daemon, nothing after it is decoded
local broken = {}

function bomber.init() broken = {} end

function bomber.dissector(tvb, pinfo, tree)
  local to_client = pinfo.src_port == bomber.prefs.port
  local stream = string.format("%s:%d>%s:%d", tostring(pinfo.src), pinfo.src_port, tostring(pinfo.dst), pinfo.dst_port)
  if broken[stream] and pinfo.number > broken[stream] then
    tree:add(bomber, tvb()):append_text(", after a protocol error: not decoded")
    pinfo.cols.protocol = "BOMBER"
    pinfo.cols.info = "after a protocol error: not decoded"
    return tvb:len()
  end
  local offset, texts = 0, {}
  while offset < tvb:len() do
    local rest = tvb:len() - offset
    local t = tvb(offset, 1):uint()
    local ty = types[t]
    -- like the daemon, an unknown descriptor is rejected at its first byte
    if ty == nil then
      texts[#texts + 1] = framing_error(tvb, offset, pinfo, tree, to_client,
        string.format("unknown segment descriptor 0x%02x", t), e.unknown)
      broken[stream] = broken[stream] or pinfo.number
      break
    end
    if rest < HEADER then
      pinfo.desegment_offset = offset
      pinfo.desegment_len = DESEGMENT_ONE_MORE_SEGMENT
      break
    end
    local len = tvb(offset + 1, 2):uint()
    if len < ty[2] or len > ty[3] then
      texts[#texts + 1] = framing_error(tvb, offset, pinfo, tree, to_client,
        string.format("bad segment length: %s with %d payload bytes (want %d..%d)", ty[1], len, ty[2], ty[3]), e.length)
      broken[stream] = broken[stream] or pinfo.number
      break
    end
    if rest < HEADER + len then
      pinfo.desegment_offset = offset
      pinfo.desegment_len = HEADER + len - rest
      break
    end
    texts[#texts + 1] = segment(tvb, offset, len, pinfo, tree, to_client)
    offset = offset + HEADER + len
  end
  if #texts > 0 then
    pinfo.cols.protocol = "BOMBER"
    pinfo.cols.info = (to_client and "S→C " or "C→S ") .. table.concat(texts, "; ")
  end
  return tvb:len()
end

DissectorTable.get("tcp.port"):add(20343, bomber)
