import { describeVisibilityProperty } from '../support/visibility-property';

/**
 * The model-based visibility property through API keys (AUTH_MODE=api_key): every simulated user
 * and agent holds its own key and passes no ids, so any leak would be a leak past the key binding.
 */
describeVisibilityProperty('api keys', 120);
