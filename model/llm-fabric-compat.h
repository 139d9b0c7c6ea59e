/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LLM_FABRIC_COMPAT_H
#define LLM_FABRIC_COMPAT_H

/**
 * @file
 * @ingroup llm-fabric
 * The one place where llm-fabric absorbs API differences between the ns-3 releases it supports
 * (3.37, as packaged by Debian, up to 3.48; and 3.35, the last waf release, see README.md).
 * Everything here is driven by LLM_FABRIC_NS3_VERSION, which the build defines as 100 * minor + 300
 * (3.37 -> 337, 3.48 -> 348): from ns3_VERSION in the standalone build, from the tree's VERSION
 * file in an ns-3 tree.
 */

#include "ns3/enum.h"
#include "ns3/mac48-address.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <utility>

#ifndef LLM_FABRIC_NS3_VERSION
#error "LLM_FABRIC_NS3_VERSION must be defined by the build (see CMakeLists.txt)"
#endif

namespace ns3
{
namespace llmfabric
{

#if LLM_FABRIC_NS3_VERSION >= 342
/// Test-case duration type (TestCase::Duration from ns-3.42; TestCase::TestDuration before).
using TestDuration = TestCase::Duration;
/// A test case that runs in seconds.
constexpr TestDuration TEST_QUICK = TestCase::Duration::QUICK;
/// A test case that runs in minutes (skipped unless the runner asks for more fullness).
constexpr TestDuration TEST_EXTENSIVE = TestCase::Duration::EXTENSIVE;
#else
/// Test-case duration type (TestCase::Duration from ns-3.42; TestCase::TestDuration before).
using TestDuration = TestCase::TestDuration;
/// A test case that runs in seconds.
constexpr TestDuration TEST_QUICK = TestCase::QUICK;
/// A test case that runs in minutes (skipped unless the runner asks for more fullness).
constexpr TestDuration TEST_EXTENSIVE = TestCase::EXTENSIVE;
#endif

#if LLM_FABRIC_NS3_VERSION < 336
/**
 * Call a callable object (the event of ScheduleLambda on ns-3.35).
 * @param f the callable.
 */
template <typename F>
void
InvokeCallable(F f)
{
    f();
}
#endif

#if LLM_FABRIC_NS3_VERSION < 337
/**
 * The last MAC address AllocateMac48Address gave (ns-3.35 and 3.36 only).
 * @return the index, by reference.
 */
inline uint64_t&
MacAllocationIndex()
{
    static uint64_t index = 0;
    return index;
}

/// Start the addresses again from 00:00:00:00:00:01 (at Simulator::Destroy).
inline void
ResetMacAllocationIndex()
{
    MacAllocationIndex() = 0;
}
#endif

} // namespace llmfabric

/**
 * A new MAC address: Mac48Address::Allocate, whose sequence ns-3 restarts at Simulator::Destroy
 * from 3.37 on, so that a second run in the same process writes the same frames. Before 3.37
 * the sequence never restarts; this module then keeps its own, restarted the same way, giving
 * the same addresses.
 * @return the address.
 */
inline Mac48Address
AllocateMac48Address()
{
#if LLM_FABRIC_NS3_VERSION >= 337
    return Mac48Address::Allocate();
#else
    uint64_t& index = llmfabric::MacAllocationIndex();
    if (index == 0)
    {
        Simulator::ScheduleDestroy(&llmfabric::ResetMacAllocationIndex);
    }
    ++index;
    uint8_t bytes[6];
    for (int i = 0; i < 6; ++i)
    {
        bytes[i] = static_cast<uint8_t>(index >> (8 * (5 - i)));
    }
    Mac48Address address;
    address.CopyFrom(bytes);
    return address;
#endif
}

/**
 * Schedule a lambda (any callable without arguments) after a delay: Simulator::Schedule(delay,
 * f) from ns-3.36 on; ns-3.35's MakeEvent takes only function and member pointers, so there the
 * callable is bound as the argument of a function template.
 * @param delay the delay.
 * @param f the callable.
 * @return the event.
 */
template <typename F>
EventId
ScheduleLambda(const Time& delay, F f)
{
#if LLM_FABRIC_NS3_VERSION >= 336
    return Simulator::Schedule(delay, std::move(f));
#else
    return Simulator::Schedule(delay, &llmfabric::InvokeCallable<F>, f);
#endif
}

} // namespace ns3

/**
 * @ingroup llm-fabric
 * Accessor for an enum-typed attribute member: MakeEnumAccessor became a template on the enum
 * type in ns-3.41 and cannot deduce it from a pointer to member before that.
 */
#if LLM_FABRIC_NS3_VERSION >= 341
#define LLM_FABRIC_ENUM_ACCESSOR(EnumType, memberPointer)                                          \
    ns3::MakeEnumAccessor<EnumType>(memberPointer)
#else
#define LLM_FABRIC_ENUM_ACCESSOR(EnumType, memberPointer) ns3::MakeEnumAccessor(memberPointer)
#endif

#endif /* LLM_FABRIC_COMPAT_H */
