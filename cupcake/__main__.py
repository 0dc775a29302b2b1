from cupcake.cli.entry import main

raise SystemExit(main())
