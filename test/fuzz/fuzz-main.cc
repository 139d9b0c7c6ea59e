/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup llm-fabric-tests
 * The libFuzzer program of one fuzz target, built three times by the LLM_FABRIC_FUZZ build (not
 * by the ordinary build, nor in an ns-3 tree) with LLM_FABRIC_FUZZ_TARGET naming the entry
 * function (FuzzScenario, FuzzHeaders or FuzzOptions) and LLM_FABRIC_FUZZ_NAME the target
 * ("scenario", ...). A broken invariant is printed and aborts, which libFuzzer reports as a
 * crash and saves the input. With LLM_FABRIC_FUZZ_DICT=FILE in the environment, the program
 * writes the target's libFuzzer dictionary to FILE and exits instead (./ns3 fuzz does this first).
 */

#include "fuzz-entries.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

extern "C" int
LLVMFuzzerInitialize(int* argc, char*** argv)
{
    const char* dictionary = std::getenv("LLM_FABRIC_FUZZ_DICT");
    if (dictionary != nullptr && dictionary[0] != '\0')
    {
        std::ofstream out(dictionary);
        for (const auto& word : llmfabric::fuzz::FuzzDictionary(LLM_FABRIC_FUZZ_NAME))
        {
            out << '"';
            for (char c : word)
            {
                if (c == '"' || c == '\\')
                {
                    out << '\\';
                }
                out << c;
            }
            out << "\"\n";
        }
        out.close(); // std::exit destroys no local object: flush the file first
        std::exit(out ? 0 : 1);
    }
    return 0;
}

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::string problem = llmfabric::fuzz::LLM_FABRIC_FUZZ_TARGET(data, size);
    if (!problem.empty())
    {
        std::fprintf(stderr, "llm-fabric-fuzz-%s: %s\n", LLM_FABRIC_FUZZ_NAME, problem.c_str());
        std::abort();
    }
    return 0;
}
