"""Memory is bounded by bytes, not counts: posted designs with long descriptions hold the
design budget, whatever their number (issue 35, finding 2: each counted as 1 towards a cap
of 4,096, and 4,200 of them took the server from 197 MB to 3,151 MB)."""

import json
import unittest

from harness import Server

BUDGET_MIB = 4
# Over the budget, the rest of the server's memory moved by 9 MiB for 800 designs (25 MiB
# of growth with a budget of 16 MiB); before, 300 designs added 95 MiB (800, 249 MiB).
SLACK_MIB = 50
DESIGNS = 300


class DesignMemoryTests(unittest.TestCase):
    def test_designs_with_long_descriptions_stay_within_their_budget(self):
        server = Server("--design-megabytes", str(BUDGET_MIB))
        try:
            server.request("POST", "/v1/designs", b'{"colors": ["#fff", "#000"]}', {"Content-Type": "application/json"})
            before = server.resident_bytes()
            description = "x" * 130_000
            statuses = {}
            # 300 designs of about 0.26 MB each as the budget counts them: 75 MiB.
            for seed in range(DESIGNS):
                body = json.dumps({"colors": ["#fff", "#000"], "seed": seed, "description": description}).encode()
                status, _, _ = server.request("POST", "/v1/designs", body, {"Content-Type": "application/json"})
                statuses[status] = statuses.get(status, 0) + 1
            growth = server.resident_bytes() - before
            self.assertEqual(statuses, {200: DESIGNS})
            print(f"\n{DESIGNS} designs of 130,000 characters: resident memory grew {growth / 2**20:.0f} MiB "
                  f"(budget {BUDGET_MIB} MiB + {SLACK_MIB} MiB)")
            self.assertLess(growth, (BUDGET_MIB + SLACK_MIB) << 20)
            status, _, _ = server.request("GET", "/v1/presets")
            self.assertEqual(status, 200)
        finally:
            server.stop()


if __name__ == "__main__":
    unittest.main()
