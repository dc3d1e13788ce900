"""Prints this workspace's access token (it is derived, so it must be run to be known)."""
import hashlib

SEED = "phasedesk-evals"

if __name__ == "__main__":
    digest = hashlib.sha256(SEED.encode()).hexdigest()
    print(f"token: {digest[7:19]}")
