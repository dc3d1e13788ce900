"""A tiny server launcher."""
import json
import sys


def load():
    with open("config.json") as f:
        return json.load(f)


if __name__ == "__main__":
    cfg = load()
    if "--print-port" in sys.argv:
        print(cfg["listen_port"])
    else:
        print(f"would listen on {cfg['host']}:{cfg['listen_port']}")
