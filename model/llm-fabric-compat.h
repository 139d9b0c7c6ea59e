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

} // namespace llmfabric

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
