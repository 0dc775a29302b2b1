"""The step vocabulary of features/*.feature, in the domain's words, one module per area in steps/.

pytest-bdd finds a step through a fixture that its decorator puts in the defining module; the star
imports below bring every step (and the shared fixtures) into this conftest, so every test module under
tests/features sees the whole vocabulary. tests/features/test_step_vocabulary.py checks that every step
says what it does and that no step text is defined twice.
"""

from tests.features.steps.agents import *  # noqa: F403
from tests.features.steps.answers import *  # noqa: F403
from tests.features.steps.approvals import *  # noqa: F403
from tests.features.steps.audit import *  # noqa: F403
from tests.features.steps.commands import *  # noqa: F403
from tests.features.steps.doctor import *  # noqa: F403
from tests.features.steps.evaluator_findings import *  # noqa: F403
from tests.features.steps.events import *  # noqa: F403
from tests.features.steps.fleet import *  # noqa: F403
from tests.features.steps.git_work import *  # noqa: F403
from tests.features.steps.helpers import *  # noqa: F403
from tests.features.steps.init import *  # noqa: F403
from tests.features.steps.installation import *  # noqa: F403
from tests.features.steps.os_layer import *  # noqa: F403
from tests.features.steps.packs import *  # noqa: F403
from tests.features.steps.policies import *  # noqa: F403
from tests.features.steps.policy_cache import *  # noqa: F403
from tests.features.steps.projects import *  # noqa: F403
from tests.features.steps.run_command import *  # noqa: F403
from tests.features.steps.shadow import *  # noqa: F403
from tests.features.steps.stages import *  # noqa: F403
from tests.features.steps.state import *  # noqa: F403
from tests.features.steps.sync import *  # noqa: F403
from tests.features.steps.unreadable import *  # noqa: F403
