import Foundation
import QnA
import QnATerminal
import TestSupport

// The terminal UI's costs, each beside a baseline measured in the same run:
// 1. A frame of 10,000 questions at 200×60 (view plus diff), against laying out every
//    question as a list that is not bounded by the screen would.
// 2. Answer-to-screen latency in tmux over 50 answers, against `qna --headless` in the same
//    kind of pane, measured the same way (so the difference is the screen's own cost).

setlocale(LC_ALL, "C.UTF-8")
print("Terminal UI benchmarks (release build)\n")
FrameBenchmark.run()
print("")
await LatencyBenchmark.run()
await ActionLatencyBenchmark.run()
