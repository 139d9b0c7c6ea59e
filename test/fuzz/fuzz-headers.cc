/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fuzz-entries.h"

#include "ns3/buffer.h"
#include "ns3/ib-aeth-header.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ib-reth-header.h"
#include "ns3/packet.h"
#include "ns3/pfc-header.h"
#include "ns3/roce-cnp-header.h"
#include "ns3/roce-icrc-trailer.h"

#include <sstream>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Fuzz target "headers": every wire format's Deserialize on any bytes.
 */

namespace llmfabric
{
namespace fuzz
{

namespace
{

/// Inputs longer than this are cut (the formats are at most tens of bytes; Buffer sizes are
/// 32-bit).
constexpr std::size_t MAX_FUZZ_INPUT = 65536;

/**
 * Which bits of a byte of a format carry a field (the others are reserved: written as zero,
 * ignored on receipt).
 */
using Meaningful = uint8_t (*)(std::size_t offset);

/// Every bit of every byte is a field (AETH, RETH, ICRC).
uint8_t
AllBits(std::size_t offset)
{
    return 0xFF;
}

/// No bit is a field: the CNP's 16 bytes are reserved (RoCEv2 annex A17.9.2).
uint8_t
NoBits(std::size_t offset)
{
    return 0x00;
}

/**
 * The BTH (IBTA vol. 1, 9.2): byte 4 carries FECN and BECN in its two top bits and 6 reserved
 * bits; byte 8 carries AckReq in its top bit and 7 bits the IBTA reserves, which llm-fabric uses
 * (IbBthHeader: bit 6 INT fill, bit 5 INT echo, bits 4-0 the hop echo), so all of byte 8 is
 * fields here; every other byte is a field.
 */
uint8_t
BthBits(std::size_t offset)
{
    return offset == 4 ? 0xC0 : 0xFF;
}

/**
 * The PFC body (802.1Qbb clause 36): opcode (2 bytes), a reserved octet, the class-enable
 * vector, 8 times 2 bytes of quanta, then 26 reserved bytes of padding.
 */
uint8_t
PfcBits(std::size_t offset)
{
    return offset == 2 || offset >= 20 ? 0x00 : 0xFF;
}

/**
 * @param data bytes.
 * @param size how many.
 * @return a Buffer holding them.
 */
ns3::Buffer
MakeBuffer(const uint8_t* data, std::size_t size)
{
    ns3::Buffer buffer;
    buffer.AddAtStart(static_cast<uint32_t>(size));
    buffer.Begin().Write(data, static_cast<uint32_t>(size));
    return buffer;
}

/**
 * @param buffer a buffer.
 * @return its bytes.
 */
std::vector<uint8_t>
Bytes(const ns3::Buffer& buffer)
{
    std::vector<uint8_t> bytes(buffer.GetSize());
    buffer.CopyData(bytes.data(), buffer.GetSize());
    return bytes;
}

/**
 * @param chunk a header (TRAILER false) or a trailer (TRAILER true).
 * @return its serialized bytes.
 */
template <typename C, bool TRAILER>
std::vector<uint8_t>
Serialize(const C& chunk)
{
    ns3::Buffer buffer;
    if constexpr (TRAILER)
    {
        buffer.AddAtEnd(chunk.GetSerializedSize());
        chunk.Serialize(buffer.End());
    }
    else
    {
        buffer.AddAtStart(chunk.GetSerializedSize());
        chunk.Serialize(buffer.Begin());
    }
    return Bytes(buffer);
}

/**
 * Deserialize a header from the start of the bytes (TRAILER false) or a trailer from their end
 * (TRAILER true).
 * @param chunk the header or trailer to fill.
 * @param data the bytes.
 * @param size how many.
 * @return what Deserialize consumed.
 */
template <typename C, bool TRAILER>
uint32_t
Deserialize(C& chunk, const uint8_t* data, std::size_t size)
{
    ns3::Buffer buffer = MakeBuffer(data, size);
    if constexpr (TRAILER)
    {
        return chunk.Deserialize(buffer.End());
    }
    else
    {
        return chunk.Deserialize(buffer.Begin());
    }
}

/**
 * @param expected the received bytes.
 * @param written the bytes serialized from what was read.
 * @param bits which bits carry fields.
 * @return "" or the first byte where a field differs or a reserved bit was not written as zero.
 */
std::string
CompareBytes(const uint8_t* expected, const std::vector<uint8_t>& written, Meaningful bits)
{
    for (std::size_t k = 0; k < written.size(); ++k)
    {
        uint8_t mask = bits(k);
        if ((written[k] & mask) != (expected[k] & mask) || (written[k] & ~mask) != 0)
        {
            return "byte " + std::to_string(k) + " written as " + std::to_string(written[k]) +
                   ", read as " + std::to_string(expected[k]);
        }
    }
    return "";
}

/**
 * Deserialize a header from the start of the bytes (TRAILER false) or a trailer from their end
 * (TRAILER true) and check the invariants: it consumes no more than there is; Print works; what
 * it consumed is its serialized size; serialized again, it gives the bytes it read (fields) and
 * zeros (reserved bits); a second round trip gives the same bytes.
 * @param data the bytes.
 * @param size how many.
 * @return "" or the broken invariant.
 */
template <typename C, Meaningful BITS, bool TRAILER = false>
std::string
CheckChunk(const uint8_t* data, std::size_t size)
{
    C chunk;
    uint32_t read = Deserialize<C, TRAILER>(chunk, data, size);
    if (read > size)
    {
        return "Deserialize consumed " + std::to_string(read) + " bytes of " + std::to_string(size);
    }
    std::ostringstream printed;
    chunk.Print(printed);
    if (read == 0)
    {
        return "";
    }
    if (read != chunk.GetSerializedSize())
    {
        return "Deserialize consumed " + std::to_string(read) + " bytes, GetSerializedSize is " +
               std::to_string(chunk.GetSerializedSize());
    }
    std::vector<uint8_t> written = Serialize<C, TRAILER>(chunk);
    // A trailer was read from the last bytes.
    std::string problem = CompareBytes(TRAILER ? data + size - read : data, written, BITS);
    if (!problem.empty())
    {
        return "serialize after deserialize: " + problem;
    }
    C again;
    if (Deserialize<C, TRAILER>(again, written.data(), written.size()) != read ||
        Serialize<C, TRAILER>(again) != written)
    {
        return "a second round trip differs from the first";
    }
    return "";
}

/**
 * RoceIcrcTrailer::Compute and Verify on the bytes as an IPv4 packet (IPv4, UDP, BTH, payload).
 * The zero-run shortcut must give the CRC of the zeros written out, by pointer and by Packet,
 * and Verify must agree with Compute over all but the last 4 bytes.
 * @param data the bytes.
 * @param size how many.
 * @return "" or the broken invariant.
 */
std::string
CheckIcrcCompute(const uint8_t* data, std::size_t size)
{
    using ns3::RoceIcrcTrailer;
    const auto length = static_cast<uint32_t>(size);
    uint32_t plain = RoceIcrcTrailer::Compute(data, length);
    // A zero tail of 64 bytes or more goes through the zero-run maps; the length varies with
    // the input so that runs of many lengths are tried.
    const uint32_t zeros = 64 + (length * 37) % 300;
    std::vector<uint8_t> padded(data, data + size);
    padded.resize(size + zeros, 0);
    uint32_t written = RoceIcrcTrailer::Compute(padded.data(), length + zeros);
    uint32_t tail = RoceIcrcTrailer::Compute(data, length, zeros);
    if (tail != 0 && tail != written)
    {
        return "ICRC with a zero tail of " + std::to_string(zeros) +
               " bytes differs from the ICRC of the zeros written out";
    }
    ns3::Ptr<ns3::Packet> packet = ns3::Create<ns3::Packet>(data, length);
    if (RoceIcrcTrailer::Compute(packet) != plain)
    {
        return "ICRC of a Packet differs from the ICRC of its bytes";
    }
    // A payload of zeros as the transport makes it, Create<Packet>(n). (Packet::AddPaddingAtEnd,
    // documented as zero-filled, gave bytes that were not all zero with Debian's ns-3.37 here.)
    ns3::Ptr<ns3::Packet> longer = packet->Copy();
    longer->AddAtEnd(ns3::Create<ns3::Packet>(zeros));
    if (RoceIcrcTrailer::Compute(longer, zeros) != written)
    {
        return "ICRC of a Packet with a zero tail differs from the ICRC of its bytes";
    }
    if (size >= 4)
    {
        uint32_t received = static_cast<uint32_t>(data[size - 4]) |
                            (static_cast<uint32_t>(data[size - 3]) << 8) |
                            (static_cast<uint32_t>(data[size - 2]) << 16) |
                            (static_cast<uint32_t>(data[size - 1]) << 24);
        uint32_t expected = RoceIcrcTrailer::Compute(data, length - 4);
        bool verified = RoceIcrcTrailer::Verify(packet);
        if (verified && expected != received)
        {
            return "Verify accepted an ICRC that Compute does not give";
        }
        if (!verified && expected != 0 && expected == received)
        {
            return "Verify refused the ICRC that Compute gives";
        }
    }
    return "";
}

/// A wire format of the target.
struct Format
{
    const char* name;                                            //!< for messages
    std::string (*check)(const uint8_t* data, std::size_t size); //!< its check
};

/**
 * The formats, by slot (the input's first byte modulo 16). Append only: a slot's meaning must
 * not change, or the corpus files written for it test something else.
 */
const std::vector<Format>&
Formats()
{
    static const std::vector<Format> formats = {
        {"bth", &CheckChunk<ns3::IbBthHeader, BthBits>},
        {"aeth", &CheckChunk<ns3::IbAethHeader, AllBits>},
        {"reth", &CheckChunk<ns3::IbRethHeader, AllBits>},
        {"cnp", &CheckChunk<ns3::RoceCnpHeader, NoBits>},
        {"pfc", &CheckChunk<ns3::PfcHeader, PfcBits>},
        {"icrc", &CheckChunk<ns3::RoceIcrcTrailer, AllBits, true>},
        {"icrc-compute", &CheckIcrcCompute},
        // Slot 7 is kept for HPCC's INT header: {"int", &CheckChunk<ns3::IntHeader, AllBits>},
    };
    return formats;
}

} // namespace

std::string
FuzzHeaders(const uint8_t* data, std::size_t size)
{
    if (size == 0)
    {
        return "";
    }
    std::size_t slot = data[0] % 16;
    if (slot >= Formats().size())
    {
        return "";
    }
    const Format& format = Formats()[slot];
    std::string problem = format.check(data + 1, std::min(size - 1, MAX_FUZZ_INPUT));
    return problem.empty() ? "" : std::string(format.name) + ": " + problem;
}

} // namespace fuzz
} // namespace llmfabric
