/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/abort.h"

#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sys/stat.h>
#include <sys/wait.h>

namespace llmfabric
{
namespace tests
{

namespace
{

/// @return the registry of skipped cases of this process.
std::vector<std::pair<std::string, std::string>>&
SkipRegistry()
{
    static std::vector<std::pair<std::string, std::string>> skipped;
    return skipped;
}

/// @return true if path names a directory.
bool
IsDirectory(const std::string& path)
{
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

} // namespace

void
ReportSkip(const std::string& caseName, const std::string& reason)
{
    SkipRegistry().emplace_back(caseName, reason);
    std::cout << "SKIP: " << caseName << ": " << reason << std::endl;
}

const std::vector<std::pair<std::string, std::string>>&
GetSkippedCases()
{
    return SkipRegistry();
}

std::string
GetSharedDataDir()
{
    const char* env = std::getenv("LLM_FABRIC_DATA_DIR");
    std::string dir;
    if (env != nullptr && env[0] != '\0')
    {
        dir = env;
    }
    else
    {
        dir = std::string(LLM_FABRIC_SOURCE_DIR) + "/../shared/data";
    }
    return IsDirectory(dir) ? dir : std::string();
}

bool
HaveProgram(const std::string& program)
{
    int status = 0;
    RunCommand("command -v '" + program + "' >/dev/null 2>&1", status);
    return status == 0;
}

std::string
RunCommand(const std::string& command, int& exitStatus)
{
    std::string output;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr)
    {
        exitStatus = -1;
        return output;
    }
    std::array<char, 4096> buffer;
    size_t n = 0;
    while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    {
        output.append(buffer.data(), n);
    }
    int status = pclose(pipe);
    exitStatus = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
    return output;
}

std::vector<uint8_t>
HexToBytes(const std::string& hex)
{
    std::vector<uint8_t> bytes;
    int high = -1;
    for (char c : hex)
    {
        if (c == ' ' || c == ':' || c == '-' || c == '\n')
        {
            continue;
        }
        NS_ABORT_MSG_UNLESS(std::isxdigit(static_cast<unsigned char>(c)),
                            "HexToBytes: not a hexadecimal digit: '" << c << "'");
        int value = std::isdigit(static_cast<unsigned char>(c))
                        ? c - '0'
                        : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
        if (high < 0)
        {
            high = value;
        }
        else
        {
            bytes.push_back(static_cast<uint8_t>(high * 16 + value));
            high = -1;
        }
    }
    NS_ABORT_MSG_IF(high >= 0, "HexToBytes: odd number of digits in '" << hex << "'");
    return bytes;
}

ns3::Ptr<ns3::Packet>
PacketFromHex(const std::string& hex)
{
    std::vector<uint8_t> bytes = HexToBytes(hex);
    return ns3::Create<ns3::Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
}

std::string
BytesToHex(const std::vector<uint8_t>& bytes)
{
    static const char* digits = "0123456789abcdef";
    std::string hex;
    hex.reserve(bytes.size() * 2);
    for (uint8_t b : bytes)
    {
        hex.push_back(digits[b >> 4]);
        hex.push_back(digits[b & 0x0f]);
    }
    return hex;
}

std::vector<uint8_t>
PacketBytes(ns3::Ptr<const ns3::Packet> packet)
{
    std::vector<uint8_t> bytes(packet->GetSize());
    packet->CopyData(bytes.data(), bytes.size());
    return bytes;
}

std::vector<uint8_t>
HeaderBytes(const ns3::Header& header)
{
    ns3::Buffer buffer;
    buffer.AddAtStart(header.GetSerializedSize());
    header.Serialize(buffer.Begin());
    std::vector<uint8_t> bytes(buffer.GetSize());
    buffer.CopyData(bytes.data(), bytes.size());
    return bytes;
}

std::vector<uint8_t>
TrailerBytes(const ns3::Trailer& trailer)
{
    ns3::Buffer buffer;
    buffer.AddAtEnd(trailer.GetSerializedSize());
    trailer.Serialize(buffer.End());
    std::vector<uint8_t> bytes(buffer.GetSize());
    buffer.CopyData(bytes.data(), bytes.size());
    return bytes;
}

} // namespace tests
} // namespace llmfabric
