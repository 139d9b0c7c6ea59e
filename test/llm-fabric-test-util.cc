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
#include <dirent.h>
#include <fstream>
#include <iostream>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

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

std::string
FindSharedDataDir(const std::string& caseName)
{
    std::string dir = GetSharedDataDir();
    if (dir.empty())
    {
        ReportSkip(caseName, "../shared/data is absent (set LLM_FABRIC_DATA_DIR)");
    }
    return dir;
}

bool
HaveProgram(const std::string& program)
{
    int status = 0;
    RunCommand("command -v '" + program + "' >/dev/null 2>&1", status);
    return status == 0;
}

/// @return the folder of this test program (the standalone build puts programs beside it).
std::string
ProgramDir()
{
    std::vector<char> buf(4096);
    ssize_t n = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
    std::string self = n > 0 ? std::string(buf.data(), n) : "";
    return self.substr(0, self.rfind('/'));
}

/**
 * Where an example program is: beside the test runner in the standalone build; in an ns-3 tree,
 * build/contrib/llm-fabric/examples/ns3.<version>-<name>[-<profile>] next to build/utils/.
 * @param name the program's name.
 * @return its path, or "" if it is not found.
 */
std::string
FindProgram(const std::string& name)
{
    std::string beside = ProgramDir() + "/" + name;
    if (access(beside.c_str(), X_OK) == 0)
    {
        return beside;
    }
    std::string examples = ProgramDir() + "/../contrib/llm-fabric/examples";
    DIR* dir = opendir(examples.c_str());
    std::string found;
    while (dir != nullptr && found.empty())
    {
        dirent* e = readdir(dir);
        if (e == nullptr)
        {
            break;
        }
        std::string file = e->d_name;
        auto at = file.find("-" + name);
        bool rest = at != std::string::npos &&
                    (at + name.size() + 1 == file.size() || file[at + name.size() + 1] == '-');
        if (file.rfind("ns3", 0) == 0 && rest && access((examples + "/" + file).c_str(), X_OK) == 0)
        {
            found = examples + "/" + file;
        }
    }
    if (dir != nullptr)
    {
        closedir(dir);
    }
    return found;
}

/**
 * FindProgram, reporting a skip for the test case when the program is not found.
 * @param name the program's name.
 * @param caseName the test case that needs it.
 * @return its path, or "" (the case was reported skipped).
 */
std::string
FindExample(const std::string& name, const std::string& caseName)
{
    std::string path = FindProgram(name);
    if (path.empty())
    {
        ReportSkip(caseName, "program " + name + " not found (examples not built)");
    }
    return path;
}

std::string
ReadBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::vector<std::vector<std::string>>
ReadCsv(const std::string& path)
{
    std::vector<std::vector<std::string>> rows;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
    {
        std::vector<std::string> fields;
        std::istringstream fieldStream(line);
        std::string field;
        while (std::getline(fieldStream, field, ','))
        {
            fields.push_back(field);
        }
        rows.push_back(fields);
    }
    return rows;
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

std::string
RunInChild(const std::function<std::string()>& work, unsigned seconds)
{
    int fds[2];
    if (pipe(fds) != 0)
    {
        return "(no pipe)";
    }
    pid_t child = fork();
    if (child == 0)
    {
        close(fds[0]);
        alarm(seconds);
        std::string result = work();
        ssize_t written = write(fds[1], result.data(), result.size());
        _exit(written == static_cast<ssize_t>(result.size()) ? 0 : 1);
    }
    close(fds[1]);
    std::string result;
    std::array<char, 512> buffer;
    ssize_t n = 0;
    while (child > 0 && (n = read(fds[0], buffer.data(), buffer.size())) > 0)
    {
        result.append(buffer.data(), n);
    }
    close(fds[0]);
    int status = 0;
    bool ended = child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
                 WEXITSTATUS(status) == 0;
    return ended ? result : "(no answer)";
}

std::string
SmallDenseModelYaml(uint32_t layers)
{
    return "model:\n  layers: " + std::to_string(layers) + R"(
  hidden_size: 256
  heads: 4
  ffn_hidden_size: 1024
  vocabulary_size: 1000
  sequence_length: 128
)";
}

std::string
CrossLeafClusterYaml(uint32_t spines)
{
    return R"(cluster:
  gpus: 8
  gpus_per_server: 2
  gpu: h100
topology:
  kind: leaf-spine
  servers_per_leaf: 1
  spines: )" +
           std::to_string(spines) + "\n";
}

} // namespace tests
} // namespace llmfabric
