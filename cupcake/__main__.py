from cupcake.entry import main

raise SystemExit(main())
