import { repeatCount } from '../support/repeat';
import { describeVisibilityProperty } from '../support/visibility-property';

/** The model-based visibility property with ids in the parameters (AUTH_MODE=off); see test/support/visibility-property.ts. */
describeVisibilityProperty('parameters', repeatCount(200));
