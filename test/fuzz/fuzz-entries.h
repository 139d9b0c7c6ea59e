/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LLM_FABRIC_FUZZ_ENTRIES_H
#define LLM_FABRIC_FUZZ_ENTRIES_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * The entry functions of the fuzz targets, one per input surface. Each takes the bytes of one
 * input, feeds them to the code under test and checks the invariants that must hold for every
 * input, returning "" or the first invariant broken (one line). The same functions serve two
 * callers: the libFuzzer programs of test/fuzz/fuzz-main.cc (clang, sanitizers, built by
 * `./ns3 fuzz`), which abort on a broken invariant, and the llm-fabric-fuzz-corpus test suite,
 * which replays every file of test/fuzz-corpus/TARGET/ in the ordinary build.
 */

namespace llmfabric
{
namespace fuzz
{

/**
 * Target "scenario": the input is a YAML text given to Scenario::LoadFromString. Invariants: no
 * crash; the message is "" or one printable line of at most 400 bytes of valid UTF-8 (no control
 * bytes); a scenario that loads has its objects and at least one GPU.
 * @param data the input.
 * @param size its length.
 * @return "" or the broken invariant.
 */
std::string FuzzScenario(const uint8_t* data, std::size_t size);

/**
 * Target "headers": the first byte chooses a wire format (its value modulo 16 indexes the table
 * in fuzz-headers.cc; unused slots ignore the input), the rest are the bytes given to its
 * Deserialize. Invariants: Deserialize consumes no more bytes than it is given and either none
 * or exactly GetSerializedSize(); what it read serializes back to the same bytes except where
 * the format says a field is reserved (written as zero); deserializing that again gives the same
 * bytes; Print works. The "icrc-compute" slot checks RoceIcrcTrailer::Compute and Verify on the
 * bytes as an IPv4 packet.
 * @param data the input.
 * @param size its length.
 * @return "" or the broken invariant.
 */
std::string FuzzHeaders(const uint8_t* data, std::size_t size);

/**
 * Target "options": the input is a command line, its arguments separated by NUL bytes, given to
 * ProgramOptions::Parse of a program that declares every kind of option (integers of 32 and 64
 * bits, a number, a flag, a size, a rate, a time, a text, a choice, an attribute default); ns-3's
 * own options (--ns3::Type::Attribute=..., global values such as --RngRun, --PrintAttributes=...)
 * are read as well. Invariants: no crash and no exit; the problem is "" or one printable line of
 * at most 400 bytes; every declared variable stays within its declared range; an option reported
 * given was in the input. Attribute defaults and global values set by an input are reset
 * (Config::Reset) before returning.
 * @param data the input.
 * @param size its length.
 * @return "" or the broken invariant.
 */
std::string FuzzOptions(const uint8_t* data, std::size_t size);

/**
 * @param text a message.
 * @return "" if it is one printable line of at most 400 bytes of valid UTF-8 without C0 or C1
 * control characters or DEL, else what is wrong.
 */
std::string CheckMessageLine(const std::string& text);

/**
 * Words for a libFuzzer dictionary of a target: the scenario's sections, keys and preset names,
 * or the options' names with every attribute and global value ns-3 has registered.
 * @param target "scenario", "headers" or "options".
 * @return the words (none for "headers").
 */
std::vector<std::string> FuzzDictionary(const std::string& target);

} // namespace fuzz
} // namespace llmfabric

#endif /* LLM_FABRIC_FUZZ_ENTRIES_H */
