/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "usage-error.h"

#include "value-parser.h"

#include "ns3/simulator.h"

#include <cstdlib>
#include <iostream>

namespace ns3
{

void
UsageError::Exit(const std::string& program, const std::string& key, const std::string& reason)
{
    Exit(program + ": --" + key + ": " + reason);
}

void
UsageError::Exit(const std::string& message)
{
    // One printable line of at most 400 bytes, whatever values the message quotes (values
    // already escaped keep their backslashes).
    std::cerr << ValueParser::Escape(message, 400, false) << std::endl;
    Simulator::Destroy();
    std::exit(2);
}

} // namespace ns3
