/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_CHOICES_H
#define COLLECTIVE_CHOICES_H

#include "collective-kind.h"

#include "ns3/type-id.h"

#include <array>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The algorithm chosen for each kind of collective: a CollectiveStrategy subclass by
 * TypeId, per CollectiveKind.
 *
 * A plain value: the scenario's @c collectives section fills one, CollectiveRuntime's per-kind
 * attributes default to GetDefault, and the analytical TrafficReport plans with the same choices.
 * Names are resolved by TypeIdAlias, so a strategy defined anywhere (in a test, say) is chosen
 * by its TypeId name or by the alias its file registers, with no table to edit.
 */
class CollectiveChoices
{
  public:
    /// Every kind at its default (GetDefault).
    CollectiveChoices();

    /**
     * @param kind a collective.
     * @return the TypeId of the strategy chosen for it.
     */
    TypeId For(CollectiveKind kind) const;

    /**
     * Choose the strategy of a kind.
     * @param kind the collective.
     * @param strategy the TypeId of a CollectiveStrategy subclass.
     */
    void Set(CollectiveKind kind, TypeId strategy);

    /**
     * @param kind a collective.
     * @return its default: ns3::DirectCollective for all-to-all and send-recv,
     * ns3::RingCollective otherwise (NCCL's ring for the reductions and gathers; the chain for
     * broadcast).
     */
    static TypeId GetDefault(CollectiveKind kind);

    /**
     * Turn a name into the TypeId of a CollectiveStrategy subclass.
     * @param name an alias ("ring") or a TypeId name ("ns3::RingCollective").
     * @param[out] strategy its TypeId (unchanged on error).
     * @return an empty string, or one line naming the known algorithms.
     */
    static std::string Resolve(const std::string& name, TypeId& strategy);

    /**
     * @param kind a collective.
     * @return the aliases of the registered strategies that implement it, sorted (for messages).
     */
    static std::vector<std::string> GetAliasesFor(CollectiveKind kind);

  private:
    std::array<TypeId, COLLECTIVE_KINDS> m_strategies; //!< Per kind.
};

} // namespace ns3

#endif /* COLLECTIVE_CHOICES_H */
