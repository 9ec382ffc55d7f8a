// Every bound of athena-bridge, in one place. The bounds of the chunk rule, which the extension
// shares, are extension/lib/limits.js's, generated into tool_contract.inc (bridge/gen-tools.mjs).
#pragma once

#include <cstddef>

#include "tool_contract.inc"

namespace athena::bridge::limits {

inline constexpr int kProtocol = 1;                                  // wire protocol (docs/wire-protocol.md)
inline constexpr std::size_t kMaxToChromeBytes = wire::kChunkBytes;  // Chrome's limit for host -> browser messages (limits.js nativeChunkBytes)
inline constexpr std::size_t kChunkDataBytes = 512u << 10;           // data per chunk (JSON escaping may double it)
inline constexpr std::size_t kMaxFrameBytes = wire::kMaxMessageBytes;  // any framed or reassembled message we accept (limits.js nativeMaxMessageBytes)
inline constexpr std::size_t kMaxChunks = wire::kMaxChunks;          // chunks of one message (limits.js nativeMaxChunks)
inline constexpr std::size_t kMaxMcpLineBytes = 16u << 20;           // one JSON-RPC message on stdio
inline constexpr std::size_t kMaxJsonDepth = 64;                     // nesting of any JSON we read (tool args and FactPacks need < 12)
inline constexpr std::size_t kMaxBatchItems = 32;                    // messages in one JSON-RPC batch (MCP 2025-06-18 dropped batches)
inline constexpr std::size_t kMaxClients = 32;                       // MCP clients served at once by one native host
inline constexpr std::size_t kMaxClientQueueBytes = 8u << 20;        // unread bytes for one client before it is disconnected
inline constexpr std::size_t kMaxHostQueueBytes = 8u << 20;          // bytes an MCP server holds for a host that is not reading (a call past it waits, as for an absent extension)
inline constexpr int kHelloTimeoutMs = 5'000;                        // a new socket client must say hello within this
inline constexpr int kPartialFrameTimeoutMs = 10'000;                // a started frame must complete within this
inline constexpr std::size_t kMaxPendingCalls = 256;                 // tool calls in flight per MCP server
inline constexpr std::size_t kMaxCallsPerClient = kMaxPendingCalls;  // ... and per socket client at the host (its fair share)
inline constexpr int kDefaultCallDeadlineMs = 60'000;                // a tool call, end to end
inline constexpr int kMaxCallDeadlineMs = 300'000;                   // what a client may ask for (wait_for)
inline constexpr int kDeadlineMarginMs = 2'000;                      // the extension gets this much less, to answer in time
inline constexpr int kConnectTimeoutMs = 2'000;                      // connecting to the host's socket
inline constexpr int kProgressEveryMs = 1'000;                       // a long call reports progress this often (when the client asked)
inline constexpr int kPollMs = 250;                                  // event-loop tick (deadline checks)
// The extension's service worker, stopped by Chrome, wakes on its alarm (extension/lib/limits.js
// wakeAlarmMinutes, 30 s) and reconnects: a call made meanwhile waits this long for it (within its
// own deadline), trying the host's socket every kReconnectEveryMs.
inline constexpr int kReconnectWaitMs = 50'000;
inline constexpr int kReconnectEveryMs = 500;

}  // namespace athena::bridge::limits
