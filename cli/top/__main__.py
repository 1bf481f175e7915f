"""``python -m carpet``: the ``carpet`` command, as installed on PATH."""

if __name__ == "__main__":
    from carpet.cli.start import main

    main()
