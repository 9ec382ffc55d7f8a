// Every bound of athena-bridge, in one place. The bounds both ends of the wire share (the chunk
// rule's, a call's deadlines, the wake alarm) are rules/'s (native-chunks.json `bounds`,
// wire-bounds.json), generated into tool_contract.inc (bridge/gen-tools.mjs).
#pragma once

#include <cstddef>

#include "tool_contract.inc"

namespace athena::bridge::limits {

inline constexpr int kProtocol = 1;  // wire protocol (docs/wire-protocol.md)
inline constexpr std::size_t kMaxToChromeBytes =
    wire::kChunkBytes;  // Chrome's limit for host -> browser messages (native-chunks.json chunkBytes)
inline constexpr std::size_t kChunkDataBytes = 512u << 10;  // data per chunk (JSON escaping may double it)
inline constexpr std::size_t kMaxFrameBytes =
    wire::kMaxMessageBytes;  // any framed or reassembled message we accept (native-chunks.json maxMessageBytes)
inline constexpr std::size_t kMaxChunks = wire::kMaxChunks;  // chunks of one message (native-chunks.json maxChunks)
inline constexpr std::size_t kMaxMcpLineBytes = 16u << 20;   // one JSON-RPC message on stdio
inline constexpr std::size_t kMaxJsonDepth = 64;   // nesting of any JSON we read (tool args and FactPacks need < 12)
inline constexpr std::size_t kMaxBatchItems = 32;  // messages in one JSON-RPC batch (MCP 2025-06-18 dropped batches)
inline constexpr std::size_t kMaxClients = 32;     // MCP clients served at once by one native host
// Past kMaxClients a newcomer waits for a slot instead of being turned away: the agent idle the
// longest (no call in flight, nothing left to read) gives its slot up, so 32 agents that each keep
// a call in flight cannot lock new ones out; the first that finishes its call makes room.
inline constexpr std::size_t kMaxWaitingClients = kMaxClients;  // connections waiting for a slot
inline constexpr int kSlotWaitMs = 20'000;                      // how long one waits before it is told why and let go
inline constexpr std::size_t kMaxClientQueueBytes = 8u << 20;   // unread bytes for one client before it is disconnected
inline constexpr std::size_t kMaxHostQueueBytes = 8u << 20;  // bytes an MCP server holds for a host that is not reading
                                                             // (a call past it waits, as for an absent extension)
inline constexpr int kHelloTimeoutMs = 5'000;                // a new socket client must say hello within this
inline constexpr int kPartialFrameTimeoutMs = 10'000;        // a started frame must complete within this
inline constexpr std::size_t kMaxPendingCalls = 256;         // tool calls in flight per MCP server
inline constexpr std::size_t kMaxCallsPerClient =
    kMaxPendingCalls;  // ... and per socket client at the host (its fair share)
// An MCP client gives up on a request after its own timeout: 60 s in the official SDKs (TypeScript
// 1.x and 2.x, DEFAULT_REQUEST_TIMEOUT_MSEC), and progress notifications push it back only for a
// caller that opted in (resetTimeoutOnProgress). Past it nobody reads our answer and the agent gets
// a bare "Request timed out": so every call, whatever it does, is answered before it.
inline constexpr int kClientTimeoutMs = 60'000;
inline constexpr int kClientTimeoutMarginMs = 5'000;  // our answer comes this much earlier (pipes, a loaded machine)
inline constexpr int kCallDeadlineMs = kClientTimeoutMs - kClientTimeoutMarginMs;  // a tool call, end to end
inline constexpr int kDeadlineMarginMs = 2'000;  // the extension gets this much less, to answer in time
inline constexpr int kConnectTimeoutMs = 2'000;  // connecting to the host's socket
inline constexpr int kConnectPollMs = 100;       // how often, while connecting, the host's status is looked for
inline constexpr int kProgressEveryMs = 1'000;   // a long call reports progress this often (when the client asked)
inline constexpr int kPeerStatusWaitMs = 1'000;  // a second browser's host asks the serving one which browser it serves
inline constexpr int kListTtlMs = 3'600'000;  // how long a 2026-07-28 client may cache tools/list and server/discover
                                              // (ttlMs): they change only with a new athena-bridge
inline constexpr std::size_t kMaxSubscriptions =
    16;                              // open subscriptions/listen requests per MCP server (each holds only its id)
inline constexpr int kPollMs = 250;  // event-loop tick (deadline checks)
// The extension's service worker, stopped by Chrome, wakes on its alarm (extension/lib/limits.js
// wakeAlarmMinutes, 30 s) and reconnects: a call made meanwhile waits this long for it (within its
// own deadline, which leaves it 15 s to run once the worker is back), trying the host's socket
// every kReconnectEveryMs.
inline constexpr int kReconnectWaitMs = 40'000;
inline constexpr int kReconnectEveryMs = 500;

// What the bounds of a call's life both ends share (rules/wire-bounds.json, generated into
// tool_contract.inc) must agree with: checked here, so changing one side alone does not build.
static_assert(wire::kCallDeadlineMaxMs == kCallDeadlineMs - kDeadlineMarginMs,
              "wire-bounds.json callDeadlineMaxMs is the longest deadline_ms the bridge sends: kCallDeadlineMs less "
              "kDeadlineMarginMs");
static_assert(
    wire::kCallDeadlineGraceMs < kDeadlineMarginMs,
    "the extension's own deadline answer (callDeadlineGraceMs after the deadline) must reach us within our margin");
static_assert(wire::kLongestToolWaitMs + kDeadlineMarginMs < wire::kCallDeadlineMaxMs,
              "the longest wait a tool's declaration allows (its deadline argument's maxMs), with the FactPack after "
              "it, must fit in a call's deadline");
static_assert(kSlotWaitMs + kDeadlineMarginMs < kCallDeadlineMs,
              "a call that waited for a slot still has time to run within its deadline");
static_assert(
    wire::kWakeAlarmMs < kReconnectWaitMs && kReconnectWaitMs < kCallDeadlineMs,
    "a call waits for the stopped worker's wake alarm (wire-bounds.json wakeAlarmMinutes), within its own deadline");

}  // namespace athena::bridge::limits
