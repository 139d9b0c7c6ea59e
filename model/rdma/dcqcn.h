/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DCQCN_H
#define DCQCN_H

#include "rdma-congestion-ops.h"

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The reaction point (sender side) of DCQCN: rate-based congestion control driven by
 * CNPs.
 *
 * From Zhu et al., "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM 2015 (section
 * 3, "the DCQCN algorithm"), with the refinements of NVIDIA's ConnectX (mlx5) implementation
 * that its public parameter documentation describes ("DCQCN Parameters"). Each attribute names
 * its mlx5 parameter. The queue pair keeps a current rate RC (the Rate trace), a target rate RT
 * (TargetRate) and the congestion estimate alpha (Alpha), all starting at the line rate and
 * InitialAlpha.
 *
 * Rate decrease, on a CNP (OnCnp). If no decrease happened in the last RateReduceMonitorPeriod
 * (zero: no limit, every CNP decreases, as in the paper):
 *  - RT <- RC: always if ClampTargetRate is true (the paper); if false, only if a rate increase
 *    event happened since the last decrease, or on the first decrease (see below);
 *  - RC <- max(RC x (1 - alpha / 2), RC x MinDecFactor / 100, min(MinRate, line rate)), with
 *    the alpha from before this CNP;
 *  - the increase state restarts: both stage counters (timer T, byte counter BC) to 0, the byte
 *    count to 0, the increase timer restarted for a full TimeReset;
 *  - the "Cnp" trace fires.
 * Every CNP, also one that did not decrease the rate, then updates alpha <- (1 - G) alpha + G
 * and restarts the alpha timer.
 *
 * Alpha decay: when AlphaUpdatePeriod passes without a CNP, alpha <- (1 - G) alpha, and again
 * after every further period without a CNP (the paper's alpha timer K; 55 us there).
 *
 * Rate increase: an increase event happens each time the increase timer expires (every
 * TimeReset; T <- T + 1) and each time ByteReset more bytes have been sent (OnSend; BC <- BC +
 * 1). With the counters after their increment and F = Threshold:
 *  - fast recovery while T <= F and BC <= F (the first F events of each kind): RC <- (RT + RC)/2;
 *  - hyper increase when T > F and BC > F: RT <- RT + i x HaiRate with i = min(T, BC) - F, then
 *    RC <- (RT + RC) / 2;
 *  - additive increase otherwise (one counter past F): RT <- RT + AiRate, RC <- (RT + RC) / 2.
 * RT is capped at the line rate, so RC never exceeds it either.
 *
 * Implementation choices:
 *  - ClampTargetRate false follows mlx5's clamp_tgt_rate = 0: the target rate is only lowered to
 *    RC by the first decrease after the rate was raised (otherwise RT keeps the rate the flow is
 *    recovering to, as in QCN). mlx5 further distinguishes timer-driven increases
 *    (clamp_tgt_rate_after_time_inc); here any increase event (timer or byte counter) counts.
 *  - A CNP inside RateReduceMonitorPeriod only updates alpha (mlx5 updates alpha per period on
 *    any CNP received, independently of the rate reduction): the rate, the target and the
 *    increase state are untouched.
 *  - Before the first decrease, and once RC is back at the line rate, nothing can increase: both
 *    timers are stopped and bytes are not counted (no events for idle flows). The alpha decays
 *    missed meanwhile (one per whole AlphaUpdatePeriod since the last alpha update) are applied
 *    when the next CNP arrives, before it is processed. RC counts as back at the line rate
 *    when it is within 1 bit/s of it.
 *  - Rates are kept as real numbers of bit/s; the Rate and TargetRate traces show them rounded
 *    to whole bit/s.
 *  - The attributes are read when they are used, except InitialAlpha, read by Start.
 *
 * Window (attribute Window, off by default): when on, the queue pair may have at most
 * RC x BaseRtt / 8 payload bytes in flight (GetWindowAt), one bandwidth-delay product at the
 * line rate scaled by RC / line rate, set again at every change of RC. This is the window the
 * HPCC paper adds to DCQCN ("DCQCN+w", Li et al., SIGCOMM 2019) and that its simulator and
 * descendants turn on with a window scaled by the rate; the DCQCN paper and mlx5 have none.
 *
 * Not modelled: mlx5's rate_to_set_on_first_cnp (0, unused, by default), rpg_gd (the default,
 * 11, gives the alpha / 2 above), rpg_max_rate (0: the line rate), and the notification point
 * (CNP generation), which is the receiver's job (RdmaQueuePair::CnpInterval).
 *
 * ApplyProfile sets every attribute for one of three documented profiles (see there); the
 * attribute defaults are those of "sigcomm2015".
 */
class Dcqcn : public RdmaCongestionOps
{
  public:
    /// Signature of the Cnp trace: a CNP decreased the rate.
    typedef void (*CnpTracedCallback)();

    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    Dcqcn();
    ~Dcqcn() override;

    /// @return "Dcqcn".
    std::string GetName() const override;

    /**
     * "TargetRate" is "target_gbps" (bit/s to Gb/s); Alpha is "alpha" by the default rule.
     * @param traceSource a TracedValue of this object.
     * @return its name and scale in time series.
     */
    RdmaCcVariableDisplay GetVariableDisplay(const std::string& traceSource) const override;

    /**
     * Start at the line rate, with alpha = InitialAlpha and the target rate at the line rate.
     * @param lineRate the NIC port's rate.
     */
    void Start(DataRate lineRate) override;

    /// Cancel the alpha and rate-increase timers; later CNPs and sends are ignored.
    void Stop() override;

    /**
     * Count sent bytes for the byte counter (only while recovering from a decrease).
     * @param bytes payload bytes sent.
     */
    void OnSend(uint32_t bytes) override;

    /// React to a CNP: decrease (see the class description) and update alpha.
    void OnCnp() override;

    /// @return the names of the profiles: "sigcomm2015", "mlx5", "simai".
    static std::vector<std::string> GetProfileNames();

    /**
     * The attribute values of a named profile (see ApplyProfile).
     * @param name "sigcomm2015", "mlx5" or "simai".
     * @param[out] out the attributes and values (empty on error).
     * @return "" or "unknown DCQCN profile 'X' (known: sigcomm2015, mlx5, simai)".
     */
    static std::string GetProfile(const std::string& name, Profile& out);

    /**
     * Make a profile the attribute defaults of every Dcqcn created afterwards (Config::SetDefault),
     * as ApplyProfile does for one object.
     * @param name "sigcomm2015", "mlx5" or "simai".
     * @return "" or the problem.
     */
    static std::string SetDefaultProfile(const std::string& name);

    /**
     * Set every attribute for a documented parameter profile.
     *
     * "sigcomm2015", the paper (Zhu et al. 2015, section 3 and its parameter table): G = 1/256,
     * AlphaUpdatePeriod = 55 us (the alpha timer K), TimeReset = 55 us (timer T), ByteReset =
     * 10 MB (10,000,000 B), Threshold F = 5, AiRate = 40 Mb/s, HaiRate = 100 Mb/s,
     * InitialAlpha = 1, ClampTargetRate = true (RT <- RC on every CNP),
     * RateReduceMonitorPeriod = 0 (every CNP decreases; the paper's notification point sends at
     * most one CNP per 50 us per flow), MinDecFactor = 0 (no bound) and MinRate = 1 Mb/s (the
     * paper gives no floor; this is the mlx5 value). HaiRate is not checked against the paper's
     * text: treat it as an assumption.
     *
     * "mlx5", the documented ConnectX defaults (NVIDIA, "DCQCN Parameters"): dce_tcp_g = 1019
     * (G = (1024 - 1019) / 1024 = 5/1024, reading the documented increase formula
     * alpha <- (dce_tcp_g / 1024) alpha + (1 - dce_tcp_g / 1024)), dce_tcp_rtt = 1 us,
     * initial_alpha_value = 1023 (taken as 1.0), rate_reduce_monitor_period = 4 us,
     * rpg_min_dec_fac = 50 %, rpg_min_rate = 1 Mb/s, clamp_tgt_rate = 0, rpg_time_reset =
     * 300 us, rpg_byte_reset = 32767 units of 64 B (2,097,088 B), rpg_threshold = 1,
     * rpg_ai_rate = 5 Mb/s, rpg_hai_rate = 50 Mb/s. The rate-increase values (time and byte
     * reset, threshold, AI and HAI rates) and the 64-byte unit are from memory of that
     * documentation, not re-checked: verify them before relying on them.
     *
     * "simai", the settings of the HPCC-lineage ns-3 simulators (HPCC's simulator, Li et al.,
     * SIGCOMM 2019, and SimAI's ns-3 backend, which inherits it) as their DCQCN runs use them
     * (the benchmark notes of the project's hpcc-format reference data list them): G = 1/256,
     * AlphaUpdatePeriod = 1 us (alpha updated every 1 us), RateReduceMonitorPeriod = 4 us (at
     * most one decrease per 4 us), TimeReset = 900 us (rate-increase timer), Threshold = 1 (one
     * fast-recovery stage), AiRate = 50 Mb/s, HaiRate = 100 Mb/s, MinRate = 100 Mb/s,
     * ClampTargetRate = false (no target-rate clamping), MinDecFactor = 0 (no bound),
     * InitialAlpha = 1, and Window = true (a window of one bandwidth-delay product scaled with
     * the rate; BaseRtt is not part of the profile: set the fabric's). Two DCQCN mechanisms that
     * those simulators omit:
     *  - the byte counter: they increase the rate on the timer only. ByteReset is 2^64 - 1 bytes
     *    (46.8 years at 100 Gb/s), so the byte counter never fires; with BC stuck at 0 the hyper
     *    stage (both counters above F) is never reached, and HaiRate is listed for completeness
     *    only: past the first timer event every increase is additive.
     *  - the notification point's CNP timer: they echo every CE mark in the per-packet ACK and
     *    rely on the sender's 1 us alpha and 4 us decrease periods. Here the receiver sends at
     *    most one CNP per RdmaQueuePair::CnpInterval (50 us by default, the DCQCN paper's); the
     *    profile does not change it (it is the receiver's attribute). Set CnpInterval to 1 us
     *    (and AckInterval to 1) to come closer to their reaction speed; every CNP then also
     *    raises alpha, as their one update per 1 us period with a CE echo does.
     *
     * @param name "sigcomm2015", "mlx5" or "simai".
     * @return "" on success, otherwise the problem (nothing is changed).
     */
    std::string ApplyProfile(const std::string& name);

    /**
     * @return the whole AlphaUpdatePeriods since the last alpha update whose decays are not
     * applied yet (0 while the alpha timer runs, and before the first decrease).
     */
    int64_t MissedAlphaPeriods() const;

    /**
     * Check the configuration.
     * @return "" if consistent, otherwise the first problem, naming the attribute and its value:
     *         G outside (0, 1], InitialAlpha outside [0, 1], a non-positive AlphaUpdatePeriod or
     *         TimeReset, a negative RateReduceMonitorPeriod, ByteReset or Threshold zero,
     *         MinDecFactor above 100, Window true with a zero BaseRtt, or (once started)
     *         MinRate above the line rate.
     */
    std::string CheckConfig() const override;

    /// @return alpha, the congestion estimate in [0, 1], with the decays of the whole periods
    /// since its last update that are not applied yet (they are applied at the next CNP).
    double GetAlpha() const;

    /// @return the target rate RT.
    DataRate GetTargetRate() const;

    /// @return the timer stage counter T (increase events from the timer since the decrease).
    uint32_t GetTimerStage() const;

    /// @return the byte stage counter BC (increase events from the byte counter since then).
    uint32_t GetByteStage() const;

    /**
     * The window at a rate, whether or not Window is on: rate x BaseRtt / 8 bytes, rounded to
     * the nearest byte (e.g. 50 Gb/s x 8 us / 8 = 50,000 bytes).
     * @param rate a rate.
     * @return the payload bytes that may be in flight at that rate.
     */
    uint64_t GetWindowAt(DataRate rate) const;

  protected:
    void DoDispose() override;

  private:
    /// Apply the alpha decays missed while the alpha timer was stopped.
    void CatchUpAlpha();

    /// (Re)start the alpha timer for a full AlphaUpdatePeriod.
    void RestartAlphaTimer();

    /// The alpha timer expired: no CNP for AlphaUpdatePeriod.
    void AlphaTimerExpired();

    /// The rate-increase timer expired.
    void IncreaseTimerExpired();

    /// One rate increase event, after its counter was incremented.
    void IncreaseEvent();

    /// Publish RC and RT to the traces, and the window (GetWindowAt(RC), or none).
    void PublishRates();

    /// RC is back at the line rate: stop both timers and byte counting.
    void StopRecovery();

    // Attributes
    double m_initialAlpha;          //!< InitialAlpha (initial_alpha_value).
    double m_g;                     //!< G (dce_tcp_g): alpha gain.
    Time m_alphaUpdatePeriod;       //!< AlphaUpdatePeriod (dce_tcp_rtt).
    Time m_rateReduceMonitorPeriod; //!< RateReduceMonitorPeriod (rate_reduce_monitor_period).
    Time m_timeReset;               //!< TimeReset (rpg_time_reset).
    uint64_t m_byteReset;           //!< ByteReset (rpg_byte_reset), bytes.
    uint32_t m_threshold;           //!< Threshold (rpg_threshold): F.
    DataRate m_aiRate;              //!< AiRate (rpg_ai_rate).
    DataRate m_haiRate;             //!< HaiRate (rpg_hai_rate).
    uint32_t m_minDecFactor;        //!< MinDecFactor (rpg_min_dec_fac), percent.
    DataRate m_minRate;             //!< MinRate (rpg_min_rate).
    bool m_clampTargetRate;         //!< ClampTargetRate (clamp_tgt_rate).
    bool m_alphaDecayEvents;        //!< AlphaDecayEvents.
    bool m_window;                  //!< Window: a window of RC x BaseRtt.
    Time m_baseRtt;                 //!< BaseRtt of the window.

    // State
    bool m_started;                     //!< Start called and Stop not since.
    bool m_recovering;                  //!< below the line rate after a decrease: increasing.
    bool m_decreased;                   //!< at least one decrease happened.
    bool m_increasedSinceDecrease;      //!< an increase event happened since the last decrease.
    double m_rc;                        //!< current rate RC, bit/s.
    double m_rt;                        //!< target rate RT, bit/s.
    uint32_t m_timerStage;              //!< T.
    uint32_t m_byteStage;               //!< BC.
    uint64_t m_bytesSinceIncrease;      //!< bytes counted towards the next byte-counter event.
    Time m_lastDecrease;                //!< time of the last decrease.
    Time m_lastAlphaUpdate;             //!< time alpha was last updated (CNP or decay).
    EventId m_alphaTimer;               //!< alpha decay timer.
    EventId m_increaseTimer;            //!< rate-increase timer.
    TracedValue<double> m_alpha;        //!< alpha.
    TracedValue<uint64_t> m_targetRate; //!< RT rounded, bit/s.
    TracedCallback<> m_cnpTrace;        //!< a CNP decreased the rate.
};

} // namespace ns3

#endif /* DCQCN_H */
