/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-choices.h"

#include "collective-strategy.h"
#include "direct-collective.h"
#include "ring-collective.h"

#include "ns3/type-id-alias.h"

#include <algorithm>

namespace ns3
{

CollectiveChoices::CollectiveChoices()
{
    for (uint32_t k = 0; k < COLLECTIVE_KINDS; ++k)
    {
        m_strategies[k] = GetDefault(static_cast<CollectiveKind>(k));
    }
}

TypeId
CollectiveChoices::For(CollectiveKind kind) const
{
    return m_strategies[static_cast<std::size_t>(kind)];
}

void
CollectiveChoices::Set(CollectiveKind kind, TypeId strategy)
{
    m_strategies[static_cast<std::size_t>(kind)] = strategy;
}

TypeId
CollectiveChoices::GetDefault(CollectiveKind kind)
{
    // GetTypeId, not a lookup by name: this runs while the library registers its types.
    bool direct = kind == CollectiveKind::ALL_TO_ALL || kind == CollectiveKind::SEND_RECV;
    return direct ? DirectCollective::GetTypeId() : RingCollective::GetTypeId();
}

std::string
CollectiveChoices::Resolve(const std::string& name, TypeId& strategy)
{
    return TypeIdAlias::Resolve(CollectiveStrategy::GetTypeId(),
                                name,
                                strategy,
                                "collective algorithm");
}

std::vector<std::string>
CollectiveChoices::GetAliasesFor(CollectiveKind kind)
{
    std::vector<std::string> aliases;
    for (const std::string& alias : TypeIdAlias::GetAliases(CollectiveStrategy::GetTypeId()))
    {
        TypeId tid;
        if (!Resolve(alias, tid).empty())
        {
            continue;
        }
        std::vector<CollectiveKind> kinds = CollectiveStrategy::Create(tid)->GetSupportedKinds();
        if (std::find(kinds.begin(), kinds.end(), kind) != kinds.end())
        {
            aliases.push_back(alias);
        }
    }
    return aliases;
}

} // namespace ns3
