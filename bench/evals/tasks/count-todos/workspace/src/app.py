def start():
    # TODO: read the port from the settings
    print("starting")


def stop():
    # TODO: close open connections
    print("stopping")
