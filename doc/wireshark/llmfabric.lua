-- llm-fabric's Wireshark dissector (Lua, Wireshark 4.0 or newer).
--
-- Decodes what Wireshark's own RoCEv2/InfiniBand dissectors do not know in llm-fabric's pcaps:
--  * llmfabric_int: the in-band telemetry (INT) extension header of HPCC (ns3::RoceIntHeader).
--    A BTH whose byte 8 has bit 6 set (telemetry to fill: data packets) or bit 5 set (telemetry
--    echoed: acknowledgements) is followed, at the end of the UDP payload just before the
--    4-byte ICRC, by 84 bytes: nhop (1 byte), flags (1 byte, bit 0 overflow), 2 reserved bytes,
--    then 5 hop records of 16 bytes (big-endian): ts (48 bits, ns), rate (16 bits, units of
--    100 Mb/s), txbytes (48 bits, wire bytes the port had sent), qlen (16 bits, units of
--    64 bytes). Wireshark's InfiniBand dissector shows those bytes as part of the payload.
--  * llmfabric_cnp: RoCEv2 congestion notification packets (BTH opcode 0x81), which Wireshark
--    4.0 shows as "Opcode: Unknown (129)": the Info column names them.
--
-- Fields: llmfabric_int.nhop, .overflow, .echo, and per filled hop llmfabric_int.hop, .ts,
-- .rate (bit/s), .txbytes, .qlen (bytes); llmfabric_cnp.destqp.
--
-- Use: tshark -X lua_script:doc/wireshark/llmfabric.lua -r FILE.pcap \
--          -T fields -e llmfabric_int.nhop -e llmfabric_int.qlen
-- or copy the file to Wireshark's personal Lua plugins folder.

local ROCEV2_PORT = 4791
local ICRC_BYTES = 4
local INT_HEADER_BYTES = 4
local RECORD_BYTES = 16
local MAX_HOPS = 5
-- 84 bytes: the header, then a record per hop.
local INT_BYTES = INT_HEADER_BYTES + MAX_HOPS * RECORD_BYTES
local BTH_BYTES = 12
local TELEMETRY_FILL = 0x40
local TELEMETRY_ECHO = 0x20
local OPCODE_CNP = 0x81
local RATE_UNIT_BPS = 100000000
local QLEN_UNIT_BYTES = 64

local p_int = Proto("llmfabric_int", "llm-fabric In-band Telemetry")
local fi = p_int.fields
fi.nhop = ProtoField.uint8("llmfabric_int.nhop", "Hops filled", base.DEC)
fi.overflow = ProtoField.bool("llmfabric_int.overflow", "Overflow (no free record)")
fi.echo = ProtoField.bool("llmfabric_int.echo", "Echoed by the receiver")
fi.hop = ProtoField.uint8("llmfabric_int.hop", "Hop", base.DEC)
fi.ts = ProtoField.uint64("llmfabric_int.ts", "Dequeue time (ns, modulo 2^48)", base.DEC)
fi.rate = ProtoField.uint64("llmfabric_int.rate", "Link rate (bit/s)", base.DEC)
fi.txbytes = ProtoField.uint64("llmfabric_int.txbytes", "Wire bytes sent (modulo 2^48)", base.DEC)
fi.qlen = ProtoField.uint32("llmfabric_int.qlen", "Queue length (bytes)", base.DEC)

local p_cnp = Proto("llmfabric_cnp", "llm-fabric RoCEv2 Congestion Notification")
p_cnp.fields.destqp = ProtoField.uint24("llmfabric_cnp.destqp", "Destination QP", base.HEX)

local f_udp = Field.new("udp")
local f_udp_dstport = Field.new("udp.dstport")

-- An unsigned big-endian field of up to 6 bytes as a UInt64.
local function be(tvb, offset, length)
    return tvb(offset, length):uint64()
end

local function dissect_int(tvb, tree, at, echo)
    local subtree = tree:add(p_int, tvb(at, INT_BYTES))
    local nhop = tvb(at, 1):uint()
    local flags = tvb(at + 1, 1):uint()
    subtree:add(fi.nhop, tvb(at, 1))
    subtree:add(fi.overflow, tvb(at + 1, 1), bit.band(flags, 0x01) ~= 0)
    subtree:add(fi.echo, tvb(at + 1, 1), echo):set_generated()
    for hop = 0, math.min(nhop, MAX_HOPS) - 1 do
        local r = at + INT_HEADER_BYTES + hop * RECORD_BYTES
        local h = subtree:add(tvb(r, RECORD_BYTES), "Hop " .. hop)
        h:add(fi.hop, tvb(r, RECORD_BYTES), hop):set_generated()
        h:add(fi.ts, tvb(r, 6), be(tvb, r, 6))
        h:add(fi.rate, tvb(r + 6, 2), be(tvb, r + 6, 2) * RATE_UNIT_BPS)
        h:add(fi.txbytes, tvb(r + 8, 6), be(tvb, r + 8, 6))
        h:add(fi.qlen, tvb(r + 14, 2), tvb(r + 14, 2):uint() * QLEN_UNIT_BYTES)
    end
    subtree:append_text(", " .. nhop .. " hop(s)" .. (echo and ", echoed" or ""))
end

local postdissector = Proto("llmfabric", "llm-fabric extensions")

function postdissector.dissector(tvb, pinfo, tree)
    local ports = { f_udp_dstport() }
    local udps = { f_udp() }
    if #ports == 0 or #udps == 0 or ports[1]() ~= ROCEV2_PORT then
        return
    end
    local udp = udps[1].offset
    if tvb:len() < udp + 8 + BTH_BYTES then
        return
    end
    local udp_end = udp + tvb(udp + 4, 2):uint()
    local bth = udp + 8
    local opcode = tvb(bth, 1):uint()
    if opcode == OPCODE_CNP then
        local destqp = tvb(bth + 5, 3):uint()
        local cnp = tree:add(p_cnp, tvb(bth, BTH_BYTES))
        cnp:add(p_cnp.fields.destqp, tvb(bth + 5, 3))
        pinfo.cols.protocol = "RoCE CNP"
        pinfo.cols.info = string.format("RoCEv2 CNP (congestion notification) to QP 0x%06x", destqp)
        return
    end
    local flags = tvb(bth + 8, 1):uint()
    local fill = bit.band(flags, TELEMETRY_FILL) ~= 0
    local echo = bit.band(flags, TELEMETRY_ECHO) ~= 0
    local at = udp_end - ICRC_BYTES - INT_BYTES
    if (fill or echo) and at >= bth + BTH_BYTES and udp_end <= tvb:len() then
        dissect_int(tvb, tree, at, echo)
    end
end

register_postdissector(postdissector, true)
