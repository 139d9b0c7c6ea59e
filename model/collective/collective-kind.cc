/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-kind.h"

#include <array>
#include <sstream>

namespace ns3
{

namespace
{

/// The names of the collectives, indexed by CollectiveKind.
const std::array<const char*, COLLECTIVE_KINDS> KIND_NAMES =
    {"all-reduce", "all-gather", "reduce-scatter", "all-to-all", "send-recv", "broadcast"};

} // namespace

std::string
GetCollectiveKindName(CollectiveKind kind)
{
    auto index = static_cast<std::size_t>(kind);
    return index < KIND_NAMES.size() ? KIND_NAMES[index] : "unknown";
}

std::string
ParseCollectiveKind(const std::string& name, CollectiveKind& kind)
{
    for (std::size_t i = 0; i < KIND_NAMES.size(); ++i)
    {
        if (name == KIND_NAMES[i])
        {
            kind = static_cast<CollectiveKind>(i);
            return "";
        }
    }
    std::ostringstream message;
    message << "unknown collective '" << name << "' (known: ";
    for (std::size_t i = 0; i < KIND_NAMES.size(); ++i)
    {
        message << (i == 0 ? "" : ", ") << KIND_NAMES[i];
    }
    message << ")";
    return message.str();
}

} // namespace ns3
