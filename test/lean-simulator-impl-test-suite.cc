/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/event-impl.h"
#include "ns3/exact-time.h"
#include "ns3/lean-simulator-impl.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of LeanSimulatorImpl: a script of random simulator calls runs under it and under ns-3's
 * DefaultSimulatorImpl, whose behaviour defines what it must do, and both must log the same.
 *
 * The script draws from std::mt19937_64 with a fixed seed (the standard specifies its outputs),
 * in the order the events run: a single event run out of ns-3's order changes every draw after
 * it, and with them the rest of the log.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

/**
 * @ingroup llm-fabric-tests
 * One script, run under a given simulator implementation, logging everything observable.
 *
 * Events schedule others 0 to 3 ns ahead (many at the same time, where only the uid orders
 * them), with and without a context, now, and at destroy; cancel, remove and query random
 * earlier events (IsExpired, GetDelayLeft, including ones already run, cancelled or removed);
 * schedule from another thread (ns-3 inserts such an event before the next one, at the delay
 * from the clock then); replace the scheduler in the middle of the run; the run stops at 150 ns
 * (Simulator::Stop with a delay) and is run again. Events also come through
 * LeanSimulatorImpl::ScheduleSteps and ScheduleStepsWithContext (straight into the running
 * LeanSimulatorImpl; before Run, and under DefaultSimulatorImpl, through ns-3's Simulator). Each
 * event logs its label, time, context, the event count, and whether ExactTime::Now agrees with
 * Simulator::Now; each id logs its uid (which counts every event scheduled, destroy events
 * included).
 */
class LeanSimulatorScript
{
  public:
    /**
     * Run the script.
     * @param implementation the simulator implementation's TypeId name.
     * @param scheduler the scheduler's TypeId name.
     * @return the log.
     */
    std::vector<std::string> Run(const std::string& implementation, const std::string& scheduler)
    {
        m_log.clear();
        m_ids.clear();
        m_idOfLabel.clear();
        m_random.seed(20261203);
        m_labels = 0;
        m_replaced = 0;
        m_clockMismatches = 0;
        Simulator::Destroy();
        Simulator::SetImplementation(ObjectFactory(implementation).Create<SimulatorImpl>());
        Simulator::SetScheduler(ObjectFactory(scheduler));
        m_schedulers = {scheduler, "ns3::MapScheduler", "ns3::HeapScheduler"};
        for (uint32_t k = 0; k < 40; ++k)
        {
            if (k % 7 == 6)
            {
                // Before Run: through Simulator::ScheduleWithContext under both.
                LeanSimulatorImpl::ScheduleStepsWithContext(
                    k % 5,
                    static_cast<uint64_t>(NanoSeconds(m_random() % 4).GetTimeStep()),
                    MakeEvent(&LeanSimulatorScript::Fire, this, NextLabel()));
            }
            else if (k % 3 == 0)
            {
                Simulator::ScheduleWithContext(k % 5,
                                               NanoSeconds(m_random() % 4),
                                               &LeanSimulatorScript::Fire,
                                               this,
                                               NextLabel());
            }
            else
            {
                ScheduleFire(NanoSeconds(m_random() % 4));
            }
        }
        Keep(Simulator::ScheduleDestroy(&LeanSimulatorScript::AtDestroy, this, NextLabel()));
        Simulator::Stop(NanoSeconds(150));
        Simulator::Run();
        Log("stopped at " + std::to_string(Simulator::Now().GetTimeStep()) + " after " +
            std::to_string(Simulator::GetEventCount()) + " events");
        Simulator::Run();
        Log("ended at " + std::to_string(Simulator::Now().GetTimeStep()) + " after " +
            std::to_string(Simulator::GetEventCount()) + " events, finished " +
            std::to_string(Simulator::IsFinished()));
        Simulator::Destroy();
        Log("destroyed");
        return m_log;
    }

    /// @return how often ExactTime::Now disagreed with Simulator::Now.
    uint32_t GetClockMismatches() const
    {
        return m_clockMismatches;
    }

  private:
    /**
     * @param line a line for the log.
     */
    void Log(const std::string& line)
    {
        m_log.push_back(line);
    }

    /// @return a new label.
    uint32_t NextLabel()
    {
        return ++m_labels;
    }

    /**
     * Keep an id for later calls, and log its uid.
     * @param id the id, of the event labelled last.
     */
    void Keep(const EventId& id)
    {
        Log("  uid " + std::to_string(id.GetUid()) + " ts " + std::to_string(id.GetTs()));
        m_ids.push_back(id);
        m_idOfLabel[m_labels] = m_ids.size() - 1;
    }

    /**
     * Schedule an event of the script, and keep its id.
     * @param delay its delay.
     */
    void ScheduleFire(Time delay)
    {
        Keep(Simulator::Schedule(delay, &LeanSimulatorScript::Fire, this, NextLabel()));
    }

    /**
     * Cancel or remove one of the ids kept, chosen at random, and log whether it has expired.
     * @param what "cancel" or "remove", for the log.
     * @param drop Simulator::Cancel or Simulator::Remove.
     */
    void Drop(const std::string& what, void (*drop)(const EventId&))
    {
        EventId& id = AnyId();
        drop(id);
        Log("  " + what + " " + std::to_string(id.GetUid()) + " expired " +
            std::to_string(Simulator::IsExpired(id)));
    }

    /// @return one of the ids kept, chosen at random.
    EventId& AnyId()
    {
        return m_ids[m_random() % m_ids.size()];
    }

    /**
     * Schedule an event from another thread, and wait for that thread.
     * @param label the event's label.
     */
    void ScheduleFromAnotherThread(uint32_t label)
    {
        std::thread other([this, label]() {
            Simulator::ScheduleWithContext(7,
                                           NanoSeconds(2),
                                           &LeanSimulatorScript::Fire,
                                           this,
                                           label);
        });
        other.join();
    }

    /**
     * A destroy event.
     * @param label its label.
     */
    void AtDestroy(uint32_t label)
    {
        Log("destroy " + std::to_string(label));
    }

    /**
     * An event: log, then do one of the script's calls.
     * @param label its label.
     */
    void Fire(uint32_t label)
    {
        if (ExactTime::Now() != Simulator::Now())
        {
            ++m_clockMismatches;
        }
        Log("event " + std::to_string(label) + " at " +
            std::to_string(Simulator::Now().GetTimeStep()) + " context " +
            std::to_string(Simulator::GetContext()) + " count " +
            std::to_string(Simulator::GetEventCount()));
        auto own = m_idOfLabel.find(label);
        if (own != m_idOfLabel.end())
        {
            // The running event's own id: expired (ns-3 counts an event as expired from its
            // start).
            Log("  own expired " + std::to_string(Simulator::IsExpired(m_ids[own->second])));
        }
        if (m_labels > 1500)
        {
            return; // the script winds down
        }
        uint64_t r = m_random() % 16;
        Time delay = NanoSeconds(m_random() % 4);
        if (r < 5)
        {
            for (uint32_t k = 0; k < 2; ++k)
            {
                ScheduleFire(NanoSeconds(m_random() % 4));
            }
        }
        else if (r == 5)
        {
            Keep(Simulator::ScheduleNow(&LeanSimulatorScript::Fire, this, NextLabel()));
        }
        else if (r == 6)
        {
            Simulator::ScheduleWithContext(static_cast<uint32_t>(m_random() % 5),
                                           delay,
                                           &LeanSimulatorScript::Fire,
                                           this,
                                           NextLabel());
        }
        else if (r == 7)
        {
            Drop("cancel", &Simulator::Cancel);
            ScheduleFire(delay);
        }
        else if (r == 8)
        {
            Drop("remove", &Simulator::Remove);
            ScheduleFire(delay);
        }
        else if (r == 9)
        {
            const EventId& id = AnyId();
            Log("  query " + std::to_string(id.GetUid()) + " expired " +
                std::to_string(Simulator::IsExpired(id)) + " left " +
                std::to_string(Simulator::GetDelayLeft(id).GetTimeStep()));
            ScheduleFire(delay);
        }
        else if (r == 10)
        {
            Keep(Simulator::ScheduleDestroy(&LeanSimulatorScript::AtDestroy, this, NextLabel()));
            ScheduleFire(delay);
        }
        else if (r == 11)
        {
            ScheduleFromAnotherThread(NextLabel());
            ScheduleFire(delay);
        }
        else if (r == 13)
        {
            // Straight into the running LeanSimulatorImpl (through Simulator::ScheduleWithContext
            // under the other): the same uid, time and running context as Schedule.
            LeanSimulatorImpl::ScheduleSteps(
                static_cast<uint64_t>(delay.GetTimeStep()),
                MakeEvent(&LeanSimulatorScript::Fire, this, NextLabel()));
            ScheduleFire(delay);
        }
        else if (r == 14)
        {
            LeanSimulatorImpl::ScheduleStepsWithContext(
                static_cast<uint32_t>(m_random() % 5),
                static_cast<uint64_t>(delay.GetTimeStep()),
                MakeEvent(&LeanSimulatorScript::Fire, this, NextLabel()));
            ScheduleFire(delay);
        }
        else if (r == 12 && m_replaced < 4)
        {
            ++m_replaced;
            Simulator::SetScheduler(ObjectFactory(m_schedulers[m_replaced % 3]));
            Log("  scheduler " + m_schedulers[m_replaced % 3]);
            ScheduleFire(delay);
        }
        else
        {
            ScheduleFire(delay);
        }
    }

    std::vector<std::string> m_log;         //!< what happened
    std::vector<EventId> m_ids;             //!< ids kept
    std::map<uint32_t, size_t> m_idOfLabel; //!< where an event's id is kept, by label
    std::mt19937_64 m_random;               //!< the script's choices
    uint32_t m_labels{0};                   //!< labels given
    uint32_t m_replaced{0};                 //!< scheduler replacements
    uint32_t m_clockMismatches{0};          //!< events where the two clocks differed
    std::vector<std::string> m_schedulers;  //!< schedulers to switch between
};

/**
 * @ingroup llm-fabric-tests
 * LeanSimulatorImpl does what DefaultSimulatorImpl does, on the script's every call, over
 * ns-3's map scheduler and this module's windowed calendar; ExactTime::Now, which reads the
 * windowed calendar's running event, agrees with Simulator::Now under both.
 */
class LeanSimulatorSameAsDefaultTestCase : public TestCase
{
  public:
    LeanSimulatorSameAsDefaultTestCase()
        : TestCase("LeanSimulatorImpl logs what DefaultSimulatorImpl logs over a script of "
                   "random simulator calls")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string scheduler : {"ns3::WindowedCalendarScheduler", "ns3::MapScheduler"})
        {
            LeanSimulatorScript script;
            std::vector<std::string> expected = script.Run("ns3::DefaultSimulatorImpl", scheduler);
            uint32_t defaultMismatches = script.GetClockMismatches();
            std::vector<std::string> got = script.Run("ns3::LeanSimulatorImpl", scheduler);

            // The script does what it is meant to: many events, several at one time, each
            // kind of call.
            uint32_t events = 0;
            uint32_t kinds = 0;
            std::set<std::string> times;
            uint32_t sameTime = 0;
            for (const std::string& line : expected)
            {
                if (line.rfind("event ", 0) == 0)
                {
                    ++events;
                    std::string at =
                        line.substr(line.find(" at "), line.find(" context") - line.find(" at "));
                    sameTime += times.insert(at).second ? 0 : 1;
                }
            }
            for (const char* kind : {"  cancel ",
                                     "  remove ",
                                     "  query ",
                                     "  scheduler ",
                                     "destroy ",
                                     "stopped at ",
                                     "  own expired 1",
                                     "context 7"})
            {
                for (const std::string& line : expected)
                {
                    if (line.find(kind) != std::string::npos)
                    {
                        ++kinds;
                        break;
                    }
                }
            }
            NS_TEST_ASSERT_MSG_GT(events, 1000, "the script runs many events on " << scheduler);
            NS_TEST_ASSERT_MSG_GT(sameTime, 500, "many of them at a time another has");
            NS_TEST_ASSERT_MSG_EQ(kinds, 8, "the script makes every kind of call");

            NS_TEST_ASSERT_MSG_EQ(got.size(), expected.size(), "log lines on " << scheduler);
            for (size_t i = 0; i < expected.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(got[i], expected[i], "log line " << i << " on " << scheduler);
            }
            NS_TEST_EXPECT_MSG_EQ(defaultMismatches, 0, "ExactTime::Now, default simulator");
            NS_TEST_EXPECT_MSG_EQ(script.GetClockMismatches(), 0, "ExactTime::Now, lean simulator");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * A timer that events move often, kept as one event object moved with
 * LeanSimulatorImpl::Withdraw, runs exactly as one moved by Simulator::Remove and a new event
 * each time: the same events at the same times, in the same order, with the same event counts.
 * Withdraw takes an event out only while a LeanSimulatorImpl runs: before Run, and under ns-3's
 * DefaultSimulatorImpl, it returns false and leaves the event pending.
 */
class LeanSimulatorWithdrawTestCase : public TestCase
{
  public:
    LeanSimulatorWithdrawTestCase()
        : TestCase("Withdraw moves a kept event object as Remove and a new event would")
    {
    }

  private:
    /// How the timer is moved.
    enum Mode
    {
        REMOVE,  //!< Simulator::Remove, then a new event object
        WITHDRAW //!< Withdraw, then the same object again
    };

    /**
     * Run the script: 40 events a nanosecond for 30 ns, each moving the timer 0 to 3 ns ahead
     * (the delays drawn from a fixed seed), the timer logging when it runs.
     * @param implementation the simulator implementation.
     * @param mode how the timer is moved.
     * @return the log.
     */
    std::vector<std::string> Run(const std::string& implementation, Mode mode)
    {
        m_log.clear();
        m_mode = mode;
        m_random.seed(20261204);
        m_withdrawn = 0;
        m_takenOut = 0;
        m_timer = EventId();
        m_object = Ptr<EventImpl>(MakeEvent(&LeanSimulatorWithdrawTestCase::Tick, this), false);
        Simulator::Destroy();
        Simulator::SetImplementation(ObjectFactory(implementation).Create<SimulatorImpl>());
        Simulator::SetScheduler(ObjectFactory("ns3::WindowedCalendarScheduler"));
        for (uint32_t t = 0; t < 30; ++t)
        {
            for (uint32_t k = 0; k < 40; ++k)
            {
                Simulator::Schedule(NanoSeconds(t), &LeanSimulatorWithdrawTestCase::Move, this, k);
            }
        }
        Simulator::Run();
        m_log.push_back("end at " + std::to_string(Simulator::Now().GetTimeStep()) + " after " +
                        std::to_string(Simulator::GetEventCount()) + " events");
        Simulator::Destroy();
        return m_log;
    }

    /**
     * A background event: log, then move the timer.
     * @param k its number within its nanosecond.
     */
    void Move(uint32_t k)
    {
        m_log.push_back("move " + std::to_string(k) + " at " +
                        std::to_string(Simulator::Now().GetTimeStep()) + " count " +
                        std::to_string(Simulator::GetEventCount()));
        if (!m_timer.IsExpired())
        {
            ++m_takenOut;
            if (m_mode == WITHDRAW && LeanSimulatorImpl::Withdraw(m_timer))
            {
                ++m_withdrawn;
                if (m_object->IsCancelled())
                {
                    m_log.push_back("withdrawn object cancelled");
                }
            }
            else
            {
                Simulator::Remove(m_timer);
                m_object =
                    Ptr<EventImpl>(MakeEvent(&LeanSimulatorWithdrawTestCase::Tick, this), false);
            }
        }
        Time delay = NanoSeconds(m_random() % 4);
        if (m_mode == WITHDRAW)
        {
            m_timer = Simulator::Schedule(delay, m_object);
        }
        else
        {
            m_timer = Simulator::Schedule(delay, &LeanSimulatorWithdrawTestCase::Tick, this);
        }
    }

    /// The timer.
    void Tick()
    {
        m_log.push_back("tick at " + std::to_string(Simulator::Now().GetTimeStep()) + " count " +
                        std::to_string(Simulator::GetEventCount()));
    }

    void DoRun() override
    {
        std::vector<std::string> expected = Run("ns3::LeanSimulatorImpl", REMOVE);
        uint32_t removed = m_takenOut;
        std::vector<std::string> got = Run("ns3::LeanSimulatorImpl", WITHDRAW);
        // Of the 1,200 moves, all but those that find the timer already run (the first, and
        // one after each tick but the last) take it out: by Withdraw, every one.
        NS_TEST_EXPECT_MSG_EQ(m_takenOut, removed, "timers taken out");
        NS_TEST_EXPECT_MSG_EQ(m_withdrawn, removed, "timers taken out by Withdraw");
        NS_TEST_EXPECT_MSG_GT(removed, 1000, "most moves take the timer out");
        uint32_t ticks = 0;
        for (const std::string& line : expected)
        {
            ticks += line.rfind("tick ", 0) == 0 ? 1 : 0;
        }
        // The timer runs where a move sets it 0 ns ahead (before the nanosecond's next move, as
        // a later uid at the same time) and once after the last move.
        NS_TEST_EXPECT_MSG_GT(ticks, 1, "the timer runs in the script");
        NS_TEST_EXPECT_MSG_EQ(removed + ticks,
                              1200,
                              "each move but the first finds the timer "
                              "pending or run");
        NS_TEST_ASSERT_MSG_EQ(got.size(), expected.size(), "log lines");
        for (size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(got[i], expected[i], "log line " << i);
        }

        // Under ns-3's simulator Withdraw refuses, and the caller's Remove does the work: the
        // same log again.
        got = Run("ns3::DefaultSimulatorImpl", WITHDRAW);
        NS_TEST_EXPECT_MSG_EQ(m_withdrawn, 0, "no Withdraw under DefaultSimulatorImpl");
        NS_TEST_ASSERT_MSG_EQ(got.size(), expected.size(), "log lines, default simulator");
        for (size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(got[i], expected[i], "log line " << i << ", default simulator");
        }

        // Before Run: refused, and the event stays pending.
        Simulator::Destroy();
        Simulator::SetImplementation(
            ObjectFactory("ns3::LeanSimulatorImpl").Create<SimulatorImpl>());
        m_log.clear();
        EventId pending =
            Simulator::Schedule(NanoSeconds(1), &LeanSimulatorWithdrawTestCase::Tick, this);
        NS_TEST_EXPECT_MSG_EQ(LeanSimulatorImpl::Withdraw(pending), false, "before Run");
        NS_TEST_EXPECT_MSG_EQ(pending.IsExpired(), false, "still pending");
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(m_log.size(), 1, "and it runs");
        Simulator::Destroy();
    }

    std::vector<std::string> m_log; //!< what happened
    Mode m_mode{REMOVE};            //!< how the timer is moved
    std::mt19937_64 m_random;       //!< the delays
    uint32_t m_withdrawn{0};        //!< Withdraw calls that took the timer out
    uint32_t m_takenOut{0};         //!< moves that found the timer pending
    EventId m_timer;                //!< the timer's pending event
    Ptr<EventImpl> m_object;        //!< the timer's event object (WITHDRAW)
};

/**
 * @ingroup llm-fabric-tests
 * The suite.
 */
class LeanSimulatorImplTestSuite : public TestSuite
{
  public:
    LeanSimulatorImplTestSuite()
        : TestSuite("llm-fabric-lean-simulator-impl", Type::UNIT)
    {
        AddTestCase(new LeanSimulatorSameAsDefaultTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new LeanSimulatorWithdrawTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static LeanSimulatorImplTestSuite g_leanSimulatorImplTestSuite;

} // namespace tests
} // namespace llmfabric
