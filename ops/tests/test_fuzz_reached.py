"""ops/fuzz_reached.py: an operation is reached when any run answered it 2xx."""

import json
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import fuzz_reached  # noqa: E402


def finished(label, *statuses):
    interactions = {str(i): {"response": {"status_code": s}} for i, s in enumerate(statuses)}
    return json.dumps({"ScenarioFinished": {"recorder": {"label": label, "interactions": interactions}}})


class Reached(unittest.TestCase):
    def test_the_runs_are_joined(self):
        caller = [finished("POST /a", 403), finished("POST /b", 200)]
        viewer = [finished("POST /a", 200), finished("POST /c", 404, 409)]
        pct, ok, total, missed = fuzz_reached.reached(caller + viewer)
        self.assertEqual((ok, total), (2, 3))
        self.assertEqual(missed, [("POST /c", {404: 1, 409: 1})])
        self.assertAlmostEqual(pct, 200 / 3)

    def test_a_stateful_scenario_counts_for_each_operation_it_called(self):
        scenario = {
            "phase": "stateful",
            "recorder": {
                "label": "Stateful tests",
                "cases": {
                    "a": {"value": {"method": "POST", "path": "/start"}},
                    "b": {"value": {"method": "POST", "path": "/over"}},
                },
                "interactions": {"a": {"response": {"status_code": 200}}, "b": {"response": {"status_code": 200}}},
            },
        }
        lines = [finished("POST /over", 404), json.dumps({"ScenarioFinished": scenario})]
        _, ok, total, missed = fuzz_reached.reached(lines)
        self.assertEqual((ok, total, missed), (2, 2, []))

    def test_an_operation_without_answers_counts_as_missed(self):
        _, ok, total, missed = fuzz_reached.reached([finished("GET /echo")])
        self.assertEqual((ok, total, missed), (0, 1, [("GET /echo", {})]))


if __name__ == "__main__":
    unittest.main()
