"""Issue #27 on the web: ``/api/state`` and ``/api/screen`` name no VIP card before the table
says which it turned over (the model table and its checks are
tests/e2e/test_now_boarding_vip_truth.py).
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
import test_now_boarding_vip_truth as truth  # the model table and its checks


def test_the_web_names_no_vip_card_before_the_table_does(web_box):
    def send(line: str) -> str:
        if line == "state":
            return "ok " + json.dumps(web_box.get("/api/state").json)
        if line == "screen":
            return "ok " + json.dumps(web_box.get("/api/screen").json)
        return str(web_box.line(line).json["reply"])

    table, end = truth.play(send, 3, 7)
    truth.check_books(table, end)
