"""What Cupcake keeps under `.cupcake/`: session state, the audit trail, and how files are written there."""
